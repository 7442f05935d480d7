/**
 * One PPO iteration of DESIGN.md §4: a rollout of SMDP decisions, advantages,
 * epochs × minibatches, and the iteration's metrics. The state it reads and advances
 * (cursor, optimizers, skip streak) belongs to the run that calls it.
 */
import type { DerivedSizes } from '../config/derive';
import { noiseAt } from '../config/noise-at';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import type { EpisodeRecord } from '../envs/task-env';
import type { VectorEnvMetrics } from '../envs/vector-env';
import type { MetricRecord } from '../metrics/metric-keys';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import { createRng, type Rng } from '../random';
import type { NamedAdam } from './adam';
import { collectRollout, type RolloutCursor } from './collect-rollout';
import { computeAdvantages } from './compute-advantages';
import { explainedVariance } from './explained-variance';
import { taskHasSuccess } from './evaluate';
import { learningRateAt, type LrSchedule } from './lr-schedule';
import { PhaseTimes } from './phase-times';
import { logProbSliceFromConfig, samplerOptionsAt } from './policy-setup';
import { ppoUpdate } from './ppo-update';

/** Reset seeds of the training envs; GRPO groups of `group_size` envs share one (DESIGN.md §4). */
export function trainSeeds(config: RunConfig, numEnvs: number, iteration: number): number[] {
  const base = (config.seed * 7919 + iteration * 104_729) % 900_000;
  const grpo = config.advantages.type === 'grpo';
  return Array.from({ length: numEnvs }, (_, envIndex) => base + (grpo ? Math.floor(envIndex / config.advantages.group_size) : envIndex));
}

/** The iteration's RNG for one purpose: it depends only on (seed, iteration), so a resumed run draws the same. */
export function iterationRng(config: RunConfig, iteration: number, purpose: number): Rng {
  return createRng((config.seed * 1_000_003 + iteration * 97 + purpose) >>> 0);
}

/** The learning-rate schedule of a run over its env-step budget (ppo.lr_schedule, ppo.warmup_steps). */
export function lrSchedule(config: RunConfig, baseLr: number, totalEnvSteps: number): LrSchedule {
  const totalSteps = Math.max(1, totalEnvSteps, config.ppo.warmup_steps);
  return { kind: config.ppo.lr_schedule, baseLr, finalLr: 0, warmupSteps: config.ppo.warmup_steps, totalSteps };
}

/** The charts/* means of the episodes that finished in an iteration; none when none did. */
export function episodeMetrics(episodes: readonly EpisodeRecord[], hasSuccess: boolean): MetricRecord {
  if (episodes.length === 0) return {};
  const mean = (pick: (episode: EpisodeRecord) => number) => episodes.reduce((sum, episode) => sum + pick(episode), 0) / episodes.length;
  return {
    // A task without a success rule logs no success rate: a constant 0 would read as failure.
    ...(hasSuccess ? { 'charts/success_rate': mean((episode) => (episode.success ? 1 : 0)) } : {}),
    'charts/episode_return': mean((episode) => episode.episodeReturn),
    'charts/episode_length': mean((episode) => episode.length),
  };
}

export interface PpoIterationInputs {
  bundle: PolicyBundle;
  env: BatchEnv;
  config: RunConfig;
  sizes: DerivedSizes;
  cursor: RolloutCursor;
  /** Iterations done before this one. */
  iteration: number;
  envStepsBefore: number;
  /** The env counters when the rollout starts. */
  envMetricsBefore: VectorEnvMetrics;
  actorOptimizer: NamedAdam;
  criticOptimizer: NamedAdam;
  skipStreak: { current: number };
  clock: () => number;
  beforeMinibatch?: () => Promise<void>;
  /** The BC regularizer's frozen reference policy; needed when ppo.bc_coef > 0. */
  reference?: FlowPolicy;
  /** Multiplies the scheduled actor lr (ppo.kl_adapt's scale; 1 when absent). */
  actorLrScale?: number;
}

export interface PpoIterationResult {
  /** The iteration's metrics, without the run's counters and evaluation. */
  metrics: MetricRecord;
  envSteps: number;
  episodes: EpisodeRecord[];
  envMetricsAfter: VectorEnvMetrics;
}

export async function ppoIteration(inputs: PpoIterationInputs): Promise<PpoIterationResult> {
  const { bundle, env, config, cursor, envStepsBefore, clock } = inputs;
  const sampler = samplerOptionsAt(config, envStepsBefore, 'train');
  const slice = logProbSliceFromConfig(config, env.actionDim);
  const phases = new PhaseTimes(clock);
  const { buffer, stats } = await collectRollout(bundle, env, cursor, config, sampler, slice, iterationRng(config, inputs.iteration, 1), phases);
  const { advantages, returns, mask, metrics: advantageMetrics } = computeAdvantages(buffer, config.advantages);
  const actorLr = learningRateAt(lrSchedule(config, config.actor_lr, inputs.sizes.totalEnvSteps), envStepsBefore) * (inputs.actorLrScale ?? 1);
  const criticLr = learningRateAt(lrSchedule(config, config.critic_lr, inputs.sizes.totalEnvSteps), envStepsBefore);
  const criticOnly = envStepsBefore < config.ppo.critic_warmup_steps;
  const updateStarted = clock();
  const update = await ppoUpdate({
    policy: bundle.policy, buffer, advantages, returns, mask, sampler, slice, config,
    actorOptimizer: inputs.actorOptimizer, criticOptimizer: inputs.criticOptimizer,
    actorLr: criticOnly ? 0 : actorLr, criticLr, criticOnly, rng: iterationRng(config, inputs.iteration, 2),
    skipStreak: inputs.skipStreak, beforeMinibatch: inputs.beforeMinibatch, phases,
    bc: inputs.reference && { reference: inputs.reference, rng: iterationRng(config, inputs.iteration, 3) },
  });
  const updateSeconds = (clock() - updateStarted) / 1000;
  const envMetricsAfter = await env.metrics();
  const before = inputs.envMetricsBefore;
  const newEnvSteps = Math.max(1, envMetricsAfter.envSteps - before.envSteps);
  const metrics: MetricRecord = {
    ...episodeMetrics(stats.episodes, taskHasSuccess(config.task)),
    ...update.metrics,
    ...advantageMetrics,
    'losses/explained_variance': explainedVariance(buffer.values, returns, buffer.mask),
    'noise/std': stats.meanNoiseStd,
    'noise/level': noiseAt(config, envStepsBefore).level,
    'train/actor_lr': criticOnly ? 0 : actorLr,
    'train/critic_lr': criticLr,
    'env/clipped_actions': (envMetricsAfter.clippedActions - before.clippedActions) / (newEnvSteps * env.actionDim),
    'env/instability_resets': envMetricsAfter.unstableResets - before.unstableResets,
    'perf/env_steps_per_s': stats.envSteps / Math.max(stats.rolloutSeconds, 1e-9),
    'perf/rollout_s': stats.rolloutSeconds,
    'perf/update_s': updateSeconds,
    ...phases.metrics(),
  };
  return { metrics, envSteps: stats.envSteps, episodes: stats.episodes, envMetricsAfter };
}
