/**
 * One iteration's metric record beyond the counters (DESIGN.md §4 metrics), the same for every
 * policy family: the finished episodes, the update's losses, the family's own rollout metrics,
 * explained variance, noise, learning rates, env counters and the phase times.
 */
import type { RunConfig } from '../config/run-config';
import type { VectorEnvMetrics } from '../envs/vector-env';
import type { MetricRecord } from '../metrics/metric-keys';
import { taskHasSuccess } from '../rl/evaluate';
import { explainedVariance } from '../rl/explained-variance';
import type { PhaseTimes } from '../rl/phase-times';
import { episodeMetrics } from '../rl/ppo-iteration';
import type { CollectedRollout } from './policy-family';

export interface IterationFigures {
  config: RunConfig;
  rollout: CollectedRollout;
  /** The update loop's metrics (losses, KL, clip fraction, grad norm, epochs). */
  update: MetricRecord;
  actorLr: number;
  criticLr: number;
  updateSeconds: number;
  /** The env counters when the rollout started and after the update. */
  envBefore: VectorEnvMetrics;
  envAfter: VectorEnvMetrics;
  actionDim: number;
  phases: PhaseTimes;
}

export function iterationMetrics(figures: IterationFigures): MetricRecord {
  const { rollout, envBefore: before, envAfter: after } = figures;
  const newEnvSteps = Math.max(1, after.envSteps - before.envSteps);
  return {
    ...episodeMetrics(rollout.episodes, taskHasSuccess(figures.config.task)),
    ...figures.update,
    ...rollout.metrics,
    'losses/explained_variance': explainedVariance(rollout.values, rollout.returns, rollout.valueMask),
    'noise/std': rollout.meanNoiseStd,
    ...(rollout.noiseLevel !== undefined ? { 'noise/level': rollout.noiseLevel } : {}),
    'train/actor_lr': figures.actorLr,
    'train/critic_lr': figures.criticLr,
    'env/clipped_actions': (after.clippedActions - before.clippedActions) / (newEnvSteps * figures.actionDim),
    'env/instability_resets': after.unstableResets - before.unstableResets,
    'perf/env_steps_per_s': rollout.envSteps / Math.max(rollout.rolloutSeconds, 1e-9),
    'perf/rollout_s': rollout.rolloutSeconds,
    'perf/update_s': figures.updateSeconds,
    ...figures.phases.metrics(),
  };
}
