import { ConfigError } from '../../errors';
import { checkRolloutArray, checkRolloutSize, isValid, type FlatArray, type RolloutSize } from './rollout-layout';

/** What GRPO reads from a rollout; every array is [T, N], time-major (t·N + envIndex). */
export interface GrpoSignals extends RolloutSize {
  /** [T, N] chunk rewards R_t = Σ_j γ^j·r_j. */
  rewards: FlatArray;
  /** [T, N] nonzero where the chunk ended its episode by termination. */
  terminated: FlatArray;
  /** [T, N] nonzero where the chunk ended its episode by truncation. */
  truncated: FlatArray;
  /** [T, N] nonzero where the chunk reached success; absent counts as never. */
  success?: FlatArray;
  /** [T, N] loss mask; decisions with 0 (after a done, without auto-reset) belong to no episode. */
  mask?: FlatArray;
}

/** One episode that finished inside the rollout window. */
export interface WindowEpisode {
  envIndex: number;
  /** Its first and last decision (inclusive). */
  firstStep: number;
  lastStep: number;
  /** Its score: the sum of its chunk rewards. */
  score: number;
  /** Some chunk of it reached success. */
  success: boolean;
}

/** GRPO's per-decision output. */
export interface GrpoResult {
  /** [T, N] the normalized score of the decision's episode; 0 where `mask` is 0. */
  advantages: Float32Array;
  /** [T, N] 1 for decisions of a finished episode in a kept group, else 0. */
  mask: Float32Array;
  /** Groups kept / all groups; 1 without the filter. */
  keptFraction: number;
}

/** Throws a ConfigError unless group_size is an integer ≥ 2 that divides num_envs. */
export function checkGroupSize(numEnvs: number, groupSize: number): void {
  if (!Number.isInteger(groupSize) || groupSize < 2) {
    throw new ConfigError('group_size', `group_size must be an integer of at least 2, got ${groupSize}`);
  }
  if (numEnvs % groupSize !== 0) {
    throw new ConfigError('group_size', `group_size (${groupSize}) must divide num_envs (${numEnvs})`);
  }
}

/**
 * (s − mean) / (std + eps) for each score of one group, with the sample standard deviation
 * (divides by count − 1). A group of one score has no spread and gets 0. `scores` [M]; returns [M].
 */
export function normalizeGroupScores(scores: readonly number[], eps = 1e-6): number[] {
  if (!(eps > 0)) throw new ConfigError('grpo_eps', `grpo_eps must be positive, got ${eps}`);
  const count = scores.length;
  if (count < 2) return scores.map(() => 0);
  const mean = scores.reduce((sum, score) => sum + score, 0) / count;
  const std = Math.sqrt(scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / (count - 1));
  return scores.map((score) => (score - mean) / (std + eps));
}

/**
 * Splits each env's window into episodes at its dones (terminated or truncated). The window's
 * first decision starts an episode (GRPO rollouts reset every env), a done ends one, and under
 * auto-reset the next decision starts the next. The decisions after an env's last done are an
 * unfinished episode: its return is partial and its outcome unknown, so it is not returned.
 * Returns the finished episodes (env by env, in time order) and `episodeOf` [T, N], each
 * decision's episode index, −1 for an unfinished or masked one.
 */
export function splitWindowEpisodes(signals: GrpoSignals): { episodes: WindowEpisode[]; episodeOf: Int32Array } {
  checkRolloutSize(signals);
  for (const field of ['rewards', 'terminated', 'truncated'] as const) checkRolloutArray(field, signals[field], signals);
  if (signals.success !== undefined) checkRolloutArray('success', signals.success, signals);
  if (signals.mask !== undefined) checkRolloutArray('mask', signals.mask, signals);
  const { numSteps, numEnvs } = signals;
  const episodes: WindowEpisode[] = [];
  const episodeOf = new Int32Array(numSteps * numEnvs).fill(-1);
  for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
    let firstStep = -1;
    let score = 0;
    let success = false;
    for (let step = 0; step < numSteps; step++) {
      const flatIndex = step * numEnvs + envIndex;
      if (!isValid(signals.mask, flatIndex)) continue;
      if (firstStep < 0) firstStep = step;
      score += signals.rewards[flatIndex];
      success ||= signals.success !== undefined && signals.success[flatIndex] !== 0;
      if (signals.terminated[flatIndex] === 0 && signals.truncated[flatIndex] === 0) continue;
      for (let member = firstStep; member <= step; member++) {
        if (isValid(signals.mask, member * numEnvs + envIndex)) episodeOf[member * numEnvs + envIndex] = episodes.length;
      }
      episodes.push({ envIndex, firstStep, lastStep: step, score, success });
      firstStep = -1;
      score = 0;
      success = false;
    }
  }
  return { episodes, episodeOf };
}

/**
 * GRPO advantages from per-episode scores, as RLinf scores a trajectory (DESIGN.md §4, §12).
 * A group is `groupSize` envs that share a reset seed (envs g·G … g·G+G−1), and its scores are
 * every episode those envs finished in the window, however many each finished (RLinf pools all
 * trajectories of a group's envs into one mean and std). Each decision of a finished episode gets
 * that episode's normalized score (normalizeGroupScores); decisions of an unfinished trailing
 * episode get mask 0. With `filter`, groups whose episodes all succeeded or all failed (and
 * groups with no finished episode) are dropped: mask 0 for all their decisions.
 */
export function computeGrpoAdvantages(signals: GrpoSignals, groupSize: number, options: { filter?: boolean; eps?: number } = {}): GrpoResult {
  checkGroupSize(signals.numEnvs, groupSize);
  const { episodes, episodeOf } = splitWindowEpisodes(signals);
  const numGroups = signals.numEnvs / groupSize;
  const groupOf = (episodeIndex: number) => Math.floor(episodes[episodeIndex].envIndex / groupSize);
  const byGroup: number[][] = Array.from({ length: numGroups }, () => []);
  episodes.forEach((_, episodeIndex) => byGroup[groupOf(episodeIndex)].push(episodeIndex));
  const advantageOf = new Float64Array(episodes.length);
  for (const members of byGroup) {
    const normalized = normalizeGroupScores(members.map((episodeIndex) => episodes[episodeIndex].score), options.eps);
    members.forEach((episodeIndex, member) => (advantageOf[episodeIndex] = normalized[member]));
  }
  const kept = byGroup.map((members) => {
    const successes = members.filter((episodeIndex) => episodes[episodeIndex].success).length;
    return !options.filter || (successes > 0 && successes < members.length);
  });
  const advantages = new Float32Array(episodeOf.length);
  const mask = new Float32Array(episodeOf.length);
  episodeOf.forEach((episodeIndex, flatIndex) => {
    if (episodeIndex < 0 || !kept[groupOf(episodeIndex)]) return;
    advantages[flatIndex] = advantageOf[episodeIndex];
    mask[flatIndex] = 1;
  });
  return { advantages, mask, keptFraction: kept.filter(Boolean).length / numGroups };
}
