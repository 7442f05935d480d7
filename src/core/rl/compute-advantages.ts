import type { AdvantagesConfig } from '../config/run-config';
import {
  broadcastEnvAdvantages,
  computeGae,
  computeGrpoAdvantages,
  computeMonteCarlo,
  computeNStep,
  episodeReturnsFromRewards,
  normalizeAdvantages,
  type AdvantageResult,
} from './advantages';
import type { RolloutBuffer } from './rollout-buffer';

/**
 * Advantages and value targets for a rollout by `advantages.type` (DESIGN.md §4), normalized
 * over valid entries when asked. GRPO scores each env's rollout return against its group's
 * (the envs that share a reset seed); its value targets stay the Monte Carlo returns.
 */
export function computeAdvantages(buffer: RolloutBuffer, config: AdvantagesConfig): AdvantageResult {
  const signals = buffer.signals();
  let result: AdvantageResult;
  if (config.type === 'gae') result = computeGae(signals, config.gamma, config.lambda);
  else if (config.type === 'mc') result = computeMonteCarlo(signals, config.gamma);
  else if (config.type === 'nstep') result = computeNStep(signals, config.gamma, config.n_steps);
  else {
    const envReturns = episodeReturnsFromRewards(signals.rewards, signals, signals.mask);
    const envAdvantages = computeGrpoAdvantages(envReturns, config.group_size);
    result = { advantages: broadcastEnvAdvantages(envAdvantages, signals, signals.mask), returns: computeMonteCarlo(signals, config.gamma).returns };
  }
  if (!config.normalize) return result;
  return { advantages: normalizeAdvantages(result.advantages, signals.mask), returns: result.returns };
}
