/**
 * Whole-config validation: every field's type and bounds, then cross-field rules
 * whose messages say how to fix the problem (DESIGN.md §9).
 */
import { ConfigError } from '../errors';
import { getField } from './access';
import { deriveSizes } from './derive';
import { fieldValueProblem } from './field-values';
import { CONFIG_KEYS } from './fields';
import { rolloutMemoryProblem } from './rollout-memory';
import type { ConfigKey, RunConfig } from './run-config';

export interface ConfigProblem {
  /** The key to change. */
  readonly field: ConfigKey;
  /** One sentence naming the values and how to fix them. */
  readonly message: string;
}

function crossFieldProblems(config: RunConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const add = (field: ConfigKey, message: string) => problems.push({ field, message });
  const { policy, noise, ppo, advantages, env } = config;

  if (policy.n_action_steps > policy.horizon) {
    add('policy.n_action_steps', `policy.n_action_steps (${policy.n_action_steps}) must be ≤ policy.horizon (${policy.horizon}); lower n_action_steps or raise horizon`);
  }
  if (policy.velocity_net === 'ditx' && policy.ditx_dim % policy.ditx_heads !== 0) {
    add('policy.ditx_heads', `policy.ditx_heads (${policy.ditx_heads}) must divide policy.ditx_dim (${policy.ditx_dim})`);
  }
  if (noise.std_min > noise.std_max) {
    add('noise.std_min', `noise.std_min (${noise.std_min}) must be ≤ noise.std_max (${noise.std_max})`);
  }
  if (noise.method === 'cps' && noise.level > 1) {
    add('noise.level', `noise.level (${noise.level}) must be ≤ 1 with noise.method=cps, where it sets the angle πa/2`);
  }
  if (noise.method === 'cps' && noise.mode === 'joint') {
    add('noise.mode', 'noise.mode=joint needs every denoising step stochastic, but cps has std 0 on its last step; use noise.mode=hybrid or another noise.method');
  }
  if (noise.decay !== 'constant') {
    if (noise.decay_steps === 0) {
      add('noise.decay_steps', `noise.decay_steps must be ≥ 1 with noise.decay=${noise.decay}; set it or use noise.decay=constant`);
    }
    if ((noise.method === 'sde' || noise.method === 'cps') && noise.level_min > noise.level) {
      add('noise.level_min', `noise.level_min (${noise.level_min}) must be ≤ noise.level (${noise.level}) with noise.decay=${noise.decay}`);
    }
  }

  const sizes = deriveSizes(config);
  const decisions = `num_envs × env.steps_per_iteration (${config.num_envs} × ${env.steps_per_iteration} = ${sizes.batchSize})`;
  const memory = rolloutMemoryProblem(config, sizes.batchSize);
  if (memory !== null) add('num_envs', memory);
  if (sizes.batchSize % ppo.minibatch_size !== 0) {
    add('ppo.minibatch_size', `ppo.minibatch_size (${ppo.minibatch_size}) must divide ${decisions}`);
  }
  if (ppo.dual_clip !== 0 && ppo.dual_clip <= 1) {
    add('ppo.dual_clip', `ppo.dual_clip (${ppo.dual_clip}) must be > 1, or 0 to turn it off`);
  }
  if (ppo.weight_decay > 0 && ppo.optimizer !== 'adamw') {
    add('ppo.weight_decay', `ppo.weight_decay (${ppo.weight_decay}) applies only with ppo.optimizer=adamw; set ppo.optimizer=adamw or ppo.weight_decay=0`);
  }
  if (advantages.type === 'grpo' && config.num_envs % advantages.group_size !== 0) {
    add('advantages.group_size', `advantages.group_size (${advantages.group_size}) must divide num_envs (${config.num_envs}) with advantages.type=grpo`);
  }
  if (advantages.type === 'nstep' && advantages.n_steps > env.steps_per_iteration) {
    add('advantages.n_steps', `advantages.n_steps (${advantages.n_steps}) must be ≤ env.steps_per_iteration (${env.steps_per_iteration})`);
  }
  if (config.iterations === 0 && config.total_env_steps === 0) {
    add('iterations', 'iterations and total_env_steps are both 0; set at least one of them');
  }
  if (config.eval.every > 0 && config.eval_episodes === 0) {
    add('eval_episodes', `eval_episodes is 0 but eval.every is ${config.eval.every}; set eval_episodes ≥ 1 or eval.every=0`);
  }
  if (config.eval.record_episodes > config.eval_episodes) {
    add('eval.record_episodes', `eval.record_episodes (${config.eval.record_episodes}) must be ≤ eval_episodes (${config.eval_episodes})`);
  }
  if (config.video.every > 0 && config.eval.every > 0 && config.video.every % config.eval.every !== 0) {
    add('video.every', `video.every (${config.video.every}) must be a multiple of eval.every (${config.eval.every}), since videos show eval episodes; or set video.every=0 to record at every evaluation`);
  }
  return problems;
}

/** Every problem in the config: field problems first (table order), then cross-field ones if the fields are sound. */
export function listConfigProblems(config: RunConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const key of CONFIG_KEYS) {
    const message = fieldValueProblem(key, getField(config, key));
    if (message !== null) problems.push({ field: key, message });
  }
  return problems.length > 0 ? problems : crossFieldProblems(config);
}

/** Throws ConfigError for the first problem; returns the config unchanged when it is valid. */
export function validateConfig(config: RunConfig): RunConfig {
  const [first] = listConfigProblems(config);
  if (first) throw new ConfigError(first.field, first.message);
  return config;
}
