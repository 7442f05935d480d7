import { describe, expect, it } from 'vitest';
import { createRng } from '../../random';
import { checkGroupSize, computeGrpoAdvantages, normalizeGroupScores, splitWindowEpisodes, type GrpoSignals } from './grpo';

const EPS = 1e-6;

describe('normalizeGroupScores', () => {
  it('normalizes by the group mean and sample std (hand case)', () => {
    // [0, 1, 5]: mean 2, deviations −2, −1, 3, Σd² = 14, sample var = 14/2 = 7, std = √7.
    const std = Math.sqrt(7);
    const normalized = normalizeGroupScores([0, 1, 5], EPS);
    [-2, -1, 3].forEach((deviation, member) => expect(normalized[member]).toBeCloseTo(deviation / (std + EPS), 12));
    // No spread: 0 / eps = 0. One score: no spread either.
    expect(normalizeGroupScores([2, 2, 2])).toEqual([0, 0, 0]);
    expect(normalizeGroupScores([7])).toEqual([0]);
    expect(normalizeGroupScores([])).toEqual([]);
  });

  it('matches a float64 reference on random scores', () => {
    const rng = createRng(5);
    for (const count of [2, 3, 7]) {
      const scores = Array.from({ length: count }, () => rng.normal() * 3);
      const mean = scores.reduce((a, b) => a + b, 0) / count;
      const std = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (count - 1));
      normalizeGroupScores(scores).forEach((value, member) => expect(value).toBeCloseTo((scores[member] - mean) / (std + EPS), 12));
    }
  });

  it('rejects a group size that does not divide the env count or is below 2, and a non-positive eps', () => {
    expect(() => checkGroupSize(6, 4)).toThrow('group_size (4) must divide num_envs (6)');
    expect(() => checkGroupSize(6, 1)).toThrow('group_size must be an integer of at least 2, got 1');
    expect(() => normalizeGroupScores([1, 2], 0)).toThrow('grpo_eps must be positive, got 0');
  });
});

/**
 * T = 5 decisions × N = 4 envs, groups of 2: {env 0, env 1} and {env 2, env 3}. Auto-reset, so a
 * decision after a done starts the next episode. R is the chunk reward; "succ" marks success
 * (which terminates), "trunc" a truncation.
 *   env 0: t0 R=1, t1 R=2 succ  → A: 3, success     t2 R=4, t3 R=1 trunc → B: 5, failed   t4 R=7 unfinished
 *   env 1: t0..t3 R=1, t3 trunc  → C: 4, failed                                           t4 R=9 unfinished
 *   env 2: t0 R=2 succ           → D: 2, success     t1..t4 R=1, t4 succ  → E: 4, success
 *   env 3: t0..t2 R=1, t2 succ   → F: 3, success                                          t3, t4 R=5 unfinished
 */
function twoEpisodeWindow(): GrpoSignals & { terminated: Uint8Array; truncated: Uint8Array; success: Uint8Array } {
  const numSteps = 5;
  const numEnvs = 4;
  const rewards = new Float32Array(numSteps * numEnvs);
  const terminated = new Uint8Array(numSteps * numEnvs);
  const truncated = new Uint8Array(numSteps * numEnvs);
  const success = new Uint8Array(numSteps * numEnvs);
  const at = (step: number, envIndex: number) => step * numEnvs + envIndex;
  const columns = [[1, 2, 4, 1, 7], [1, 1, 1, 1, 9], [2, 1, 1, 1, 1], [1, 1, 1, 5, 5]];
  columns.forEach((column, envIndex) => column.forEach((reward, step) => (rewards[at(step, envIndex)] = reward)));
  for (const [step, envIndex] of [[1, 0], [0, 2], [4, 2], [2, 3]]) {
    terminated[at(step, envIndex)] = 1;
    success[at(step, envIndex)] = 1;
  }
  for (const [step, envIndex] of [[3, 0], [3, 1]]) truncated[at(step, envIndex)] = 1;
  return { numSteps, numEnvs, rewards, terminated, truncated, success };
}

/** [T, N] flat from per-env columns. */
function byEnv(columns: number[][]): number[] {
  const numSteps = columns[0].length;
  return Array.from({ length: numSteps * columns.length }, (_, flatIndex) => columns[flatIndex % columns.length][Math.floor(flatIndex / columns.length)]);
}

describe('splitWindowEpisodes', () => {
  it('cuts each env window at its dones and leaves the unfinished tail out', () => {
    const { episodes, episodeOf } = splitWindowEpisodes(twoEpisodeWindow());
    expect(episodes).toEqual([
      { envIndex: 0, firstStep: 0, lastStep: 1, score: 3, success: true },
      { envIndex: 0, firstStep: 2, lastStep: 3, score: 5, success: false },
      { envIndex: 1, firstStep: 0, lastStep: 3, score: 4, success: false },
      { envIndex: 2, firstStep: 0, lastStep: 0, score: 2, success: true },
      { envIndex: 2, firstStep: 1, lastStep: 4, score: 4, success: true },
      { envIndex: 3, firstStep: 0, lastStep: 2, score: 3, success: true },
    ]);
    expect(Array.from(episodeOf)).toEqual(byEnv([[0, 0, 1, 1, -1], [2, 2, 2, 2, -1], [3, 4, 4, 4, 4], [5, 5, 5, -1, -1]]));
  });

  it('without auto-reset, masked decisions after the done belong to no episode and are never read', () => {
    // T = 3, N = 2: env 0 terminates at t0 (success), then masked junk; env 1 never finishes.
    const signals: GrpoSignals = {
      numSteps: 3, numEnvs: 2,
      rewards: Float32Array.of(1, 1, NaN, 1, NaN, 1),
      terminated: Uint8Array.of(1, 0, 1, 0, 1, 0),
      truncated: new Uint8Array(6),
      success: Uint8Array.of(1, 0, 1, 0, 1, 0),
      mask: Float32Array.of(1, 1, 0, 1, 0, 1),
    };
    const { episodes, episodeOf } = splitWindowEpisodes(signals);
    expect(episodes).toEqual([{ envIndex: 0, firstStep: 0, lastStep: 0, score: 1, success: true }]);
    expect(Array.from(episodeOf)).toEqual([0, -1, -1, -1, -1, -1]);
  });
});

describe('computeGrpoAdvantages', () => {
  it('scores each finished episode against every finished episode of its group (hand case)', () => {
    // Group 0 pools A, B, C: scores 3, 5, 4 → mean 4, deviations −1, 1, 0, Σd² = 2, sample var 2/2 = 1, std 1.
    //   A → −1/(1 + eps), B → 1/(1 + eps), C → 0.
    // Group 1 pools D, E, F: scores 2, 4, 3 → mean 3, the same deviations: D → −1/(1 + eps), E → 1/(1 + eps), F → 0.
    const result = computeGrpoAdvantages(twoEpisodeWindow(), 2);
    const a = 1 / (1 + EPS);
    const expected = byEnv([[-a, -a, a, a, 0], [0, 0, 0, 0, 0], [-a, a, a, a, a], [0, 0, 0, 0, 0]]);
    expected.forEach((value, flatIndex) => expect(result.advantages[flatIndex]).toBeCloseTo(value, 6));
    // The unfinished tails (env 0 t4, env 1 t4, env 3 t3–t4) are masked; everything else counts.
    expect(Array.from(result.mask)).toEqual(byEnv([[1, 1, 1, 1, 0], [1, 1, 1, 1, 0], [1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]));
    expect(result.keptFraction).toBe(1);
  });

  it('filter: drops the all-success group, keeps the mixed one, and reports the kept fraction of groups', () => {
    // Group 0 has A (success) and B, C (failed): kept. Group 1's D, E, F all succeeded: dropped.
    const result = computeGrpoAdvantages(twoEpisodeWindow(), 2, { filter: true });
    const a = 1 / (1 + EPS);
    const expected = byEnv([[-a, -a, a, a, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]);
    expected.forEach((value, flatIndex) => expect(result.advantages[flatIndex]).toBeCloseTo(value, 6));
    expect(Array.from(result.mask)).toEqual(byEnv([[1, 1, 1, 1, 0], [1, 1, 1, 1, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]));
    expect(result.keptFraction).toBe(0.5);
  });

  it('filter: an all-failed group and a group without a finished episode are dropped too, so everything can be dropped', () => {
    const signals = twoEpisodeWindow();
    // Group 0 loses its only success (A), so all of A, B, C failed.
    signals.success[1 * 4 + 0] = 0;
    signals.terminated[1 * 4 + 0] = 0;
    signals.truncated[1 * 4 + 0] = 1;
    const dropped = computeGrpoAdvantages(signals, 2, { filter: true });
    expect(dropped.keptFraction).toBe(0);
    expect(dropped.mask.every((value) => value === 0)).toBe(true);
    expect(dropped.advantages.every((value) => value === 0)).toBe(true);
    // No done anywhere: no episode finished, nothing is scored even without the filter.
    const none = computeGrpoAdvantages({ ...signals, terminated: new Uint8Array(20), truncated: new Uint8Array(20) }, 2);
    expect(none.mask.every((value) => value === 0)).toBe(true);
    expect(computeGrpoAdvantages({ ...signals, terminated: new Uint8Array(20), truncated: new Uint8Array(20) }, 2, { filter: true }).keptFraction).toBe(0);
  });

  it('rejects wrongly sized arrays and a bad group size', () => {
    const signals = twoEpisodeWindow();
    expect(() => computeGrpoAdvantages({ ...signals, success: new Uint8Array(3) }, 2)).toThrow('success has length 3, expected T × N = 5 × 4 = 20');
    expect(() => computeGrpoAdvantages(signals, 3)).toThrow('group_size (3) must divide num_envs (4)');
  });
});
