import { isValid } from './rollout-layout';
import { checkUnitInterval } from './gae';
import { checkRolloutSignals, stepEnd, successorValue, type AdvantageResult, type RolloutSignals } from './rollout-signals';

/**
 * Discounted Monte Carlo returns over SMDP chunk steps (DESIGN.md §4):
 *   G_t = R_t + γ^τ_t·G'_t, with G'_t = 0 on termination, G_{t+1} otherwise.
 * With `bootstrap` (the default) an unfinished tail is valued like GAE does:
 * V(final_obs) on truncation and the bootstrap value after step T−1; without
 * it those tails count as 0 (pure returns). Advantages are G − V.
 * Returns advantages and returns, both [T, N], 0 where masked.
 */
export function computeMonteCarlo(signals: RolloutSignals, gamma: number, options: { bootstrap?: boolean } = {}): AdvantageResult {
  checkUnitInterval('gamma', gamma);
  checkRolloutSignals(signals);
  const bootstrap = options.bootstrap ?? true;
  const { numSteps, numEnvs } = signals;
  const advantages = new Float32Array(numSteps * numEnvs);
  const returns = new Float32Array(numSteps * numEnvs);
  for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
    let nextReturn = 0;
    for (let step = numSteps - 1; step >= 0; step--) {
      const flatIndex = step * numEnvs + envIndex;
      if (!isValid(signals.mask, flatIndex)) {
        nextReturn = 0;
        continue;
      }
      const end = stepEnd(signals, flatIndex);
      const lastStep = step === numSteps - 1;
      let successor: number;
      if (end === 'continues' && !lastStep) {
        successor = nextReturn;
        // successorValue also rejects a continuing step followed by a masked one.
        successorValue(signals, step, envIndex);
      } else {
        successor = bootstrap ? successorValue(signals, step, envIndex) : 0;
      }
      const discounted = signals.rewards[flatIndex] + Math.pow(gamma, signals.chunkSteps[flatIndex]) * successor;
      returns[flatIndex] = discounted;
      advantages[flatIndex] = discounted - signals.values[flatIndex];
      nextReturn = discounted;
    }
  }
  return { advantages, returns };
}
