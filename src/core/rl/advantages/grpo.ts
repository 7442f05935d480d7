import { ConfigError } from '../../errors';
import { checkEnvArray, checkRolloutArray, checkRolloutSize, isValid, type FlatArray, type RolloutSize } from './rollout-layout';

/**
 * GRPO advantages (DESIGN.md §4): envs n·G … n·G+G−1 form one group that
 * shares a reset seed, and each env's episode return is normalized within its
 * group: A = (R − mean_group) / (std_group + eps). std is the sample standard
 * deviation (divides by G − 1), so group_size must be at least 2.
 * `episodeReturns` is [N]; returns [N].
 */
export function computeGrpoAdvantages(episodeReturns: FlatArray, groupSize: number, eps = 1e-6): Float32Array {
  const numEnvs = episodeReturns.length;
  if (!Number.isInteger(groupSize) || groupSize < 2) {
    throw new ConfigError('group_size', `group_size must be an integer of at least 2, got ${groupSize}`);
  }
  if (numEnvs % groupSize !== 0) {
    throw new ConfigError('group_size', `group_size (${groupSize}) must divide num_envs (${numEnvs})`);
  }
  if (!(eps > 0)) throw new ConfigError('grpo_eps', `grpo_eps must be positive, got ${eps}`);
  const advantages = new Float32Array(numEnvs);
  for (let groupStart = 0; groupStart < numEnvs; groupStart += groupSize) {
    let sum = 0;
    for (let member = 0; member < groupSize; member++) sum += episodeReturns[groupStart + member];
    const mean = sum / groupSize;
    let squares = 0;
    for (let member = 0; member < groupSize; member++) squares += (episodeReturns[groupStart + member] - mean) ** 2;
    const std = Math.sqrt(squares / (groupSize - 1));
    for (let member = 0; member < groupSize; member++) {
      advantages[groupStart + member] = (episodeReturns[groupStart + member] - mean) / (std + eps);
    }
  }
  return advantages;
}

/** Undiscounted episode return per env: the sum of valid chunk rewards. `rewards` is [T, N]; returns [N]. */
export function episodeReturnsFromRewards(rewards: FlatArray, size: RolloutSize, mask?: FlatArray): Float32Array {
  checkRolloutSize(size);
  checkRolloutArray('rewards', rewards, size);
  if (mask !== undefined) checkRolloutArray('mask', mask, size);
  const totals = new Float64Array(size.numEnvs);
  for (let step = 0; step < size.numSteps; step++) {
    for (let envIndex = 0; envIndex < size.numEnvs; envIndex++) {
      const flatIndex = step * size.numEnvs + envIndex;
      if (isValid(mask, flatIndex)) totals[envIndex] += rewards[flatIndex];
    }
  }
  return Float32Array.from(totals);
}

/** Gives every valid step of an env its episode-level advantage. `envAdvantages` is [N]; returns [T, N], 0 where masked. */
export function broadcastEnvAdvantages(envAdvantages: FlatArray, size: RolloutSize, mask?: FlatArray): Float32Array {
  checkRolloutSize(size);
  checkEnvArray('envAdvantages', envAdvantages, size);
  if (mask !== undefined) checkRolloutArray('mask', mask, size);
  const out = new Float32Array(size.numSteps * size.numEnvs);
  for (let step = 0; step < size.numSteps; step++) {
    for (let envIndex = 0; envIndex < size.numEnvs; envIndex++) {
      const flatIndex = step * size.numEnvs + envIndex;
      if (isValid(mask, flatIndex)) out[flatIndex] = envAdvantages[envIndex];
    }
  }
  return out;
}
