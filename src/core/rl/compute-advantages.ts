import type { AdvantagesConfig } from '../config/run-config';
import type { MetricRecord } from '../metrics/metric-keys';
import {
  computeGae,
  computeGrpoAdvantages,
  computeMonteCarlo,
  computeNStep,
  normalizeAdvantages,
  withTruncation,
  type AdvantageResult,
} from './advantages';
import type { RolloutBuffer } from './rollout-buffer';

/** Advantages and value targets, with the loss mask the update uses. */
export interface RolloutAdvantages extends AdvantageResult {
  /** [T, N] the rollout's loss mask; GRPO narrows it to finished episodes of kept groups. */
  mask: Float32Array;
  /** advantages/grpo_kept_fraction with GRPO's filter on; otherwise empty. */
  metrics: MetricRecord;
}

/**
 * Advantages and value targets for a rollout by `advantages.type` (DESIGN.md §4), normalized
 * over the entries of the returned mask when asked. GRPO scores each finished episode against
 * its group's (computeGrpoAdvantages); its value targets stay the Monte Carlo returns. GRPO
 * advantages are already normalized within each group and are never normalized again over the
 * batch (as in RLinf): that would shift each group off mean 0 and weight an episode by its length.
 */
export function computeAdvantages(buffer: RolloutBuffer, config: AdvantagesConfig): RolloutAdvantages {
  const signals = withTruncation(buffer.signals(), config.truncation);
  let result: AdvantageResult;
  let mask = buffer.mask;
  const metrics: MetricRecord = {};
  if (config.type === 'gae') result = computeGae(signals, config.gamma, config.lambda);
  else if (config.type === 'mc') result = computeMonteCarlo(signals, config.gamma);
  else if (config.type === 'nstep') result = computeNStep(signals, config.gamma, config.n_steps);
  else {
    const grpo = computeGrpoAdvantages(signals, config.group_size, { filter: config.grpo_filter });
    mask = grpo.mask;
    if (config.grpo_filter) metrics['advantages/grpo_kept_fraction'] = grpo.keptFraction;
    result = { advantages: grpo.advantages, returns: computeMonteCarlo(signals, config.gamma).returns };
  }
  const advantages = config.normalize && config.type !== 'grpo' ? normalizeAdvantages(result.advantages, mask) : result.advantages;
  return { advantages, returns: result.returns, mask, metrics };
}
