import { ConfigError } from '../../errors';
import { isValid } from './rollout-layout';
import { checkUnitInterval } from './gae';
import { checkRolloutSignals, stepEnd, successorValue, type AdvantageResult, type RolloutSignals } from './rollout-signals';

/**
 * n-step returns over SMDP chunk steps (DESIGN.md §4):
 *   G_t = R_t + γ^τ_t·R_{t+1} + … + γ^(τ_t+…+τ_{t+m−1})·V_boot,
 * summing m ≤ n chunks and stopping early at a done or at the rollout end.
 * V_boot is V_{t+n} after n chunks, 0 after a termination, V(final_obs) after
 * a truncation and the bootstrap value after step T−1. Advantages are G − V.
 * Returns advantages and returns, both [T, N], 0 where masked.
 */
export function computeNStep(signals: RolloutSignals, gamma: number, nSteps: number): AdvantageResult {
  checkUnitInterval('gamma', gamma);
  if (!Number.isInteger(nSteps) || nSteps < 1) {
    throw new ConfigError('n_steps', `n_steps must be a positive integer, got ${nSteps}`);
  }
  checkRolloutSignals(signals);
  const { numSteps, numEnvs } = signals;
  const advantages = new Float32Array(numSteps * numEnvs);
  const returns = new Float32Array(numSteps * numEnvs);
  for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
    for (let step = 0; step < numSteps; step++) {
      const flatIndex = step * numEnvs + envIndex;
      if (!isValid(signals.mask, flatIndex)) continue;
      let total = 0;
      let discount = 1;
      for (let offset = 0; ; offset++) {
        const current = step + offset;
        const currentIndex = current * numEnvs + envIndex;
        const chunkDiscount = Math.pow(gamma, signals.chunkSteps[currentIndex]);
        total += discount * signals.rewards[currentIndex];
        discount *= chunkDiscount;
        const lastChunk = offset === nSteps - 1 || current === numSteps - 1 || stepEnd(signals, currentIndex) !== 'continues';
        if (lastChunk) {
          total += discount * successorValue(signals, current, envIndex);
          break;
        }
        // The next chunk is read as a reward, so it must be valid too.
        successorValue(signals, current, envIndex);
      }
      returns[flatIndex] = total;
      advantages[flatIndex] = total - signals.values[flatIndex];
    }
  }
  return { advantages, returns };
}
