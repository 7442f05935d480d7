/**
 * Sizes derived from a config, computed once (DESIGN.md §9). One decision is one
 * chunk of `policy.n_action_steps` env steps (DESIGN.md §4); a chunk that hits a
 * done runs fewer, so env-step figures here are upper bounds.
 */
import type { RunConfig } from './run-config';

export interface DerivedSizes {
  /** Decisions per rollout: num_envs × env.steps_per_iteration. */
  batchSize: number;
  /** batchSize / ppo.minibatch_size (floored; validateConfig requires exact division). */
  minibatchesPerEpoch: number;
  /** Optimizer steps per iteration: ppo.epochs × minibatchesPerEpoch (before any target_kl stop). */
  updatesPerIteration: number;
  /** Env steps per rollout at most: batchSize × policy.n_action_steps. */
  envStepsPerIteration: number;
  /** Iterations the run performs: the smaller of `iterations` and ceil(total_env_steps / envStepsPerIteration), ignoring a 0. */
  iterations: number;
  /** Env steps the run performs at most: iterations × envStepsPerIteration. */
  totalEnvSteps: number;
  /** Iterations spent training the critic only: ceil(ppo.critic_warmup_steps / envStepsPerIteration). */
  criticWarmupIterations: number;
  /** Evaluations during the run: floor(iterations / eval.every), 0 when off. */
  evaluations: number;
}

/** Derived sizes; assumes per-field bounds hold (positive sizes). */
export function deriveSizes(config: RunConfig): DerivedSizes {
  const batchSize = config.num_envs * config.env.steps_per_iteration;
  const minibatchesPerEpoch = Math.floor(batchSize / config.ppo.minibatch_size);
  const envStepsPerIteration = batchSize * config.policy.n_action_steps;
  const fromBudget = config.total_env_steps > 0 ? Math.ceil(config.total_env_steps / envStepsPerIteration) : Infinity;
  const fromCount = config.iterations > 0 ? config.iterations : Infinity;
  const iterations = Math.min(fromBudget, fromCount);
  const resolved = Number.isFinite(iterations) ? iterations : 0;
  return {
    batchSize,
    minibatchesPerEpoch,
    updatesPerIteration: config.ppo.epochs * minibatchesPerEpoch,
    envStepsPerIteration,
    iterations: resolved,
    totalEnvSteps: resolved * envStepsPerIteration,
    criticWarmupIterations: Math.ceil(config.ppo.critic_warmup_steps / envStepsPerIteration),
    evaluations: config.eval.every > 0 && config.eval_episodes > 0 ? Math.floor(resolved / config.eval.every) : 0,
  };
}
