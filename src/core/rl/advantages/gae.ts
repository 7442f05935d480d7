import { ConfigError } from '../../errors';
import { isValid } from './rollout-layout';
import { checkRolloutSignals, stepEnd, successorValue, type AdvantageResult, type RolloutSignals } from './rollout-signals';

/** Throws a ConfigError unless 0 ≤ value ≤ 1. */
export function checkUnitInterval(field: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new ConfigError(field, `${field} must be in [0, 1], got ${value}`);
}

/**
 * Generalized advantage estimation over SMDP chunk steps (DESIGN.md §4):
 *   δ_t = R_t + γ^τ_t·V'_t − V_t
 *   A_t = δ_t + γ^τ_t·λ·(1 − done_t)·A_{t+1}
 *   returns = A + V
 * Sums run in float64. Masked entries come out 0 and are never read.
 * Returns advantages and returns, both [T, N].
 */
export function computeGae(signals: RolloutSignals, gamma: number, lambda: number): AdvantageResult {
  checkUnitInterval('gamma', gamma);
  checkUnitInterval('gae_lambda', lambda);
  checkRolloutSignals(signals);
  const { numSteps, numEnvs } = signals;
  const advantages = new Float32Array(numSteps * numEnvs);
  const returns = new Float32Array(numSteps * numEnvs);
  for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
    // A_{t+1} in float64; reset to 0 across a done, so nothing flows backward past it.
    let nextAdvantage = 0;
    for (let step = numSteps - 1; step >= 0; step--) {
      const flatIndex = step * numEnvs + envIndex;
      if (!isValid(signals.mask, flatIndex)) {
        nextAdvantage = 0;
        continue;
      }
      const chunkDiscount = Math.pow(gamma, signals.chunkSteps[flatIndex]);
      const value = signals.values[flatIndex];
      const delta = signals.rewards[flatIndex] + chunkDiscount * successorValue(signals, step, envIndex) - value;
      const notDone = stepEnd(signals, flatIndex) === 'continues' ? 1 : 0;
      const advantage = delta + chunkDiscount * lambda * notDone * nextAdvantage;
      advantages[flatIndex] = advantage;
      returns[flatIndex] = advantage + value;
      nextAdvantage = advantage;
    }
  }
  return { advantages, returns };
}
