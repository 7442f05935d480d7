/**
 * Whole-config validation: every field's type and table bounds, then the cross-field
 * rules whose messages say how to fix the problem (DESIGN.md §9): the bounds one field
 * puts on another (range-rules.ts, shared with the studio's sliders) and the rules that
 * are not ranges (divisibility, modes), below. This is the one place a config is judged;
 * a config it accepts runs without the sampler or the schedules refusing it.
 */
import { ConfigError } from '../errors';
import { hasPointCloud, isImageObsMode } from '../envs/task-types';
import { getField } from './access';
import { deriveSizes } from './derive';
import { fieldValueProblem } from './field-values';
import { CONFIG_KEYS } from './fields';
import { rangeRuleProblems } from './range-rules';
import { rolloutMemoryProblem } from './rollout-memory';
import { convSides } from '../policy/image-encoder-options';
import type { ConfigKey, RunConfig } from './run-config';

export interface ConfigProblem {
  /** The key to change. */
  readonly field: ConfigKey;
  /** One sentence naming the values and how to fix them. */
  readonly message: string;
}

/** Cross-field rules that are not a range of one field. */
function otherCrossFieldProblems(config: RunConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const add = (field: ConfigKey, message: string) => problems.push({ field, message });
  const { policy, ppo, advantages, env } = config;

  if (policy.kind === 'gaussian') {
    // A Gaussian policy acts one control step per decision on the current state (CleanRL's setting).
    const fix = 'with policy.kind=gaussian (or use preset=gaussian-ppo)';
    if (policy.horizon !== 1) add('policy.horizon', `policy.horizon (${policy.horizon}) must be 1 ${fix}: a Gaussian policy predicts one action per decision`);
    if (policy.n_action_steps !== 1) add('policy.n_action_steps', `policy.n_action_steps (${policy.n_action_steps}) must be 1 ${fix}: a Gaussian policy predicts one action per decision`);
    if (policy.n_obs_steps !== 1) add('policy.n_obs_steps', `policy.n_obs_steps (${policy.n_obs_steps}) must be 1 ${fix}: the Gaussian policy reads the current observation only`);
    if (env.obs_type !== 'state') add('env.obs_type', `env.obs_type must be state ${fix}: the Gaussian policy has no point-cloud or image encoder`);
  }
  if (policy.kind === 'diffusion') {
    // DPPO's chain (DESIGN.md §17): DDIM thins the T DDPM steps evenly (how many steps a run fine-tunes is the family's check).
    if (policy.ddim_steps > 0 && policy.denoise_steps % policy.ddim_steps !== 0) {
      add('policy.ddim_steps', `policy.ddim_steps (${policy.ddim_steps}) must divide policy.denoise_steps (${policy.denoise_steps}): DPPO's DDIM grid steps by T/S`);
    }
    if (config.dppo.adv_quantile_low >= config.dppo.adv_quantile_high) {
      add('dppo.adv_quantile_high', `dppo.adv_quantile_high (${config.dppo.adv_quantile_high}) must be above dppo.adv_quantile_low (${config.dppo.adv_quantile_low})`);
    }
    if (policy.freeze_encoder === 'true') add('policy.freeze_encoder', 'policy.freeze_encoder=true is not supported with policy.kind=diffusion: DPPO fine-tunes the whole net; use auto or false');
  }
  if (isImageObsMode(env.obs_type)) problems.push(...imageProblems(config));
  if (hasPointCloud(env.obs_type) && policy.encoder_hidden.length === 0) {
    add('policy.encoder_hidden', `policy.encoder_hidden must name at least one width with env.obs_type=${env.obs_type}: it sizes the per-point MLP`);
  }
  if (policy.velocity_net === 'reflow_mlp' && env.obs_type !== 'state') {
    add('policy.velocity_net', `policy.velocity_net=reflow_mlp (ReinFlow's FlowMLP) reads the state; use mlp, ditx or unet1d with env.obs_type=${env.obs_type}`);
  }
  if (policy.velocity_net === 'ditx' && policy.ditx_dim % policy.ditx_heads !== 0) {
    add('policy.ditx_heads', `policy.ditx_heads (${policy.ditx_heads}) must divide policy.ditx_dim (${policy.ditx_dim})`);
  }
  if (policy.velocity_net === 'unet1d') problems.push(...unetProblems(config));
  const sizes = deriveSizes(config);
  const decisions = `num_envs × env.steps_per_iteration (${config.num_envs} × ${env.steps_per_iteration} = ${sizes.batchSize})`;
  const memory = rolloutMemoryProblem(config, sizes.batchSize);
  if (memory !== null) add('num_envs', memory);
  if (policy.kind === 'diffusion') {
    // DPPO's update samples (decision, fine-tuned step) pairs: K' per decision.
    const samples = sizes.batchSize * config.dppo.ft_denoising_steps;
    if (samples % ppo.minibatch_size !== 0) {
      add('ppo.minibatch_size', `ppo.minibatch_size (${ppo.minibatch_size}) must divide the update's ${decisions} × dppo.ft_denoising_steps (${config.dppo.ft_denoising_steps}) = ${samples} denoising-step samples`);
    }
  } else if (sizes.batchSize % ppo.minibatch_size !== 0) {
    add('ppo.minibatch_size', `ppo.minibatch_size (${ppo.minibatch_size}) must divide ${decisions}`);
  }
  if (ppo.dual_clip !== 0 && ppo.dual_clip <= 1) {
    add('ppo.dual_clip', `ppo.dual_clip (${ppo.dual_clip}) must be > 1, or 0 to turn it off`);
  }
  if (advantages.type === 'grpo' && config.num_envs % advantages.group_size !== 0) {
    add('advantages.group_size', `advantages.group_size (${advantages.group_size}) must divide num_envs (${config.num_envs}) with advantages.type=grpo`);
  }
  if (config.video.every > 0 && config.eval.every > 0 && config.video.every % config.eval.every !== 0) {
    add('video.every', `video.every (${config.video.every}) must be a multiple of eval.every (${config.eval.every}), since videos show eval episodes; or set video.every=0 to record at every evaluation`);
  }
  return problems;
}

/** What image observations (env.obs_type rgb, rgbd) need of the rest of the config. */
function imageProblems(config: RunConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const { policy, env } = config;
  if (policy.n_obs_steps !== 1) {
    problems.push({ field: 'policy.n_obs_steps', message: `policy.n_obs_steps (${policy.n_obs_steps}) must be 1 with env.obs_type=${env.obs_type}: image observations keep no history (one observation's images per decision)` });
  }
  if (convSides({ size: env.image_size, convChannels: policy.cnn_channels }).at(-1)! < 1) {
    problems.push({
      field: 'policy.cnn_channels',
      message: `policy.cnn_channels has ${policy.cnn_channels.length} stride-2 layers, which shrink env.image_size=${env.image_size} images to nothing; use fewer layers or a larger env.image_size`,
    });
  }
  return problems;
}

/** The UNet1D's sizes against each other and the horizon (policy/options.ts checks the same when the net is built). */
function unetProblems(config: RunConfig): ConfigProblem[] {
  const { unet_dims: dims, unet_groups: groups, unet_kernel: kernel, horizon } = config.policy;
  const problems: ConfigProblem[] = [];
  const badWidth = dims.find((width) => width % groups !== 0);
  if (badWidth !== undefined) {
    problems.push({ field: 'policy.unet_groups', message: `policy.unet_groups (${groups}) must divide every width of policy.unet_dims (${dims.join(',')}), but not ${badWidth}` });
  }
  if (kernel % 2 !== 1) problems.push({ field: 'policy.unet_kernel', message: `policy.unet_kernel (${kernel}) must be odd, so the same-padded convolutions keep the horizon` });
  const factor = 2 ** (dims.length - 1);
  if (horizon % factor !== 0) {
    problems.push({ field: 'policy.horizon', message: `policy.horizon (${horizon}) must be a multiple of ${factor} with policy.unet_dims=${dims.join(',')}: the UNet1D halves the horizon between its ${dims.length} levels` });
  }
  return problems;
}

const KEY_ORDER: ReadonlyMap<ConfigKey, number> = new Map(CONFIG_KEYS.map((key, index) => [key, index]));

/** Range-rule and other cross-field problems together, in table order of the key they name. */
function crossFieldProblems(config: RunConfig): ConfigProblem[] {
  const problems = [...rangeRuleProblems(config), ...otherCrossFieldProblems(config)];
  return problems.sort((a, b) => KEY_ORDER.get(a.field)! - KEY_ORDER.get(b.field)!);
}

/** Every problem in the config: field problems first, then cross-field ones if the fields are sound; each in table order. */
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
