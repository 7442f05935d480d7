import { describe, expect, it } from 'vitest';
import { createRng } from '../random';
import { discountedReturns } from './returns-to-go';

describe('discountedReturns', () => {
  it('discounts by γ^τ within an episode and stops at its end', () => {
    // Episode 0: entries 0..2 with τ = [4, 4, 2], γ = 0.5. G_2 = 1; G_1 = −1 + 0.5⁴·1 = −0.9375;
    // G_0 = 2 + 0.5⁴·(−0.9375) = 1.94140625. Episode 1: entries 3..4 with τ = 1: G_4 = 3, G_3 = 1 + 0.5·3 = 2.5.
    const returns = discountedReturns([2, -1, 1, 1, 3], [4, 4, 2, 1, 1], [0, 3, 5], 0.5);
    expect(Array.from(returns)).toEqual([1.94140625, -0.9375, 1, 2.5, 3]);
  });

  it('matches a forward float64 sum on fresh random episodes', () => {
    const rng = createRng(5);
    const lengths = [7, 1, 12, 3];
    const starts = [0];
    for (const length of lengths) starts.push(starts[starts.length - 1] + length);
    const count = starts[starts.length - 1];
    const rewards = Array.from({ length: count }, () => rng.normal());
    const steps = Array.from({ length: count }, () => 1 + rng.int(4));
    const gamma = 0.97;
    const returns = discountedReturns(rewards, steps, starts, gamma);
    for (let episodeIndex = 0; episodeIndex < lengths.length; episodeIndex++) {
      for (let entry = starts[episodeIndex]; entry < starts[episodeIndex + 1]; entry++) {
        // G_entry = Σ_k R_k · γ^(τ_entry + … + τ_{k−1}) over the rest of the episode.
        let expected = 0;
        let elapsed = 0;
        for (let later = entry; later < starts[episodeIndex + 1]; later++) {
          expected += rewards[later] * gamma ** elapsed;
          elapsed += steps[later];
        }
        expect(returns[entry]).toBeCloseTo(expected, 5);
      }
    }
  });

  it('names a bad layout', () => {
    expect(() => discountedReturns([1, 2], [1], [0, 2], 0.9)).toThrow('steps has 1 entries; expected one per reward (2)');
    expect(() => discountedReturns([1, 2], [1, 1], [0, 1], 0.9)).toThrow('episodeStarts must run from 0 to the number of entries (2), got [0, 1]');
  });
});
