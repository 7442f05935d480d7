import { describe, expect, it } from 'vitest';
import { createRng } from '../../random';
import { broadcastEnvAdvantages, computeGrpoAdvantages, episodeReturnsFromRewards } from './grpo';

describe('computeGrpoAdvantages', () => {
  it('normalizes each group of envs by its own mean and sample std (hand case)', () => {
    // Groups of 3: [0, 1, 5] and [2, 2, 2].
    //   group 0: mean 2, deviations −2, −1, 3, Σd² = 14, sample var = 14/2 = 7, std = √7
    //   group 1: std 0, so every advantage is 0 / eps = 0
    const eps = 1e-6;
    const advantages = computeGrpoAdvantages(Float32Array.of(0, 1, 5, 2, 2, 2), 3, eps);
    const std = Math.sqrt(7);
    expect(advantages[0]).toBeCloseTo(-2 / (std + eps), 6);
    expect(advantages[1]).toBeCloseTo(-1 / (std + eps), 6);
    expect(advantages[2]).toBeCloseTo(3 / (std + eps), 6);
    expect(Array.from(advantages.subarray(3))).toEqual([0, 0, 0]);
  });

  it('matches a float64 reference on random returns', () => {
    const rng = createRng(5);
    const groupSize = 4;
    const returns = Float64Array.from({ length: 16 }, () => rng.normal() * 3);
    const advantages = computeGrpoAdvantages(returns, groupSize);
    for (let group = 0; group < 4; group++) {
      const members = Array.from(returns.subarray(group * groupSize, (group + 1) * groupSize));
      const mean = members.reduce((a, b) => a + b, 0) / groupSize;
      const std = Math.sqrt(members.reduce((a, b) => a + (b - mean) ** 2, 0) / (groupSize - 1));
      members.forEach((value, member) => expect(advantages[group * groupSize + member]).toBeCloseTo((value - mean) / (std + 1e-6), 5));
    }
  });

  it('rejects a group size that does not divide the env count or is below 2', () => {
    expect(() => computeGrpoAdvantages(new Float32Array(6), 4)).toThrow('group_size (4) must divide num_envs (6)');
    expect(() => computeGrpoAdvantages(new Float32Array(6), 1)).toThrow('group_size must be an integer of at least 2, got 1');
  });
});

describe('episode helpers', () => {
  it('sums valid rewards per env and broadcasts env advantages over valid steps', () => {
    // T = 3, N = 2; env 0 ends after step 1 (step 2 masked).
    const size = { numSteps: 3, numEnvs: 2 };
    const rewards = Float32Array.of(1, 10, 2, 20, 99, 30);
    const mask = Float32Array.of(1, 1, 1, 1, 0, 1);
    // env 0: 1 + 2 = 3 (99 masked); env 1: 10 + 20 + 30 = 60.
    expect(Array.from(episodeReturnsFromRewards(rewards, size, mask))).toEqual([3, 60]);
    expect(Array.from(broadcastEnvAdvantages(Float32Array.of(-1, 2), size, mask))).toEqual([-1, 2, -1, 2, 0, 2]);
    expect(() => broadcastEnvAdvantages(Float32Array.of(1), size)).toThrow('envAdvantages has length 1, expected N = 2');
  });
});
