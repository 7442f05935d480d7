import { describe, expect, it } from 'vitest';
import { MinMaxNormalizer } from '../../policy/normalizer';
import { createRng } from '../../random';
import { normalizerConstants } from './normalizer';

describe('normalizerConstants (the constants the graph normalizes with)', () => {
  it('min 1, max 3 → centre 2, half range 1; a constant feature (min = max = 5) keeps scale 1', () => {
    const constants = normalizerConstants(new MinMaxNormalizer({ min: [1, 5, -4], max: [3, 5, 0] }));
    expect([...constants.center]).toEqual([2, 5, -2]);
    expect([...constants.halfRange]).toEqual([1, 0, 2]);
    // scale = 1/halfRange: 1, 1 (constant), 0.5.
    expect([...constants.scale]).toEqual([1, 1, 0.5]);
  });

  it('give exactly MinMaxNormalizer.normalize and .unnormalize on fresh random stats and values', () => {
    const rng = createRng(9);
    const dim = 12;
    const min = Array.from({ length: dim }, () => 10 * rng.normal());
    const max = min.map((lo, featureIndex) => (featureIndex === 3 ? lo : lo + 5 * rng.uniform()));
    const normalizer = new MinMaxNormalizer({ min, max });
    const { center, halfRange, scale } = normalizerConstants(normalizer);
    const values = Float32Array.from({ length: 5 * dim }, () => 10 * rng.normal());
    const normalized = normalizer.normalize(values);
    const unnormalized = normalizer.unnormalize(values);
    values.forEach((value, offset) => {
      const featureIndex = offset % dim;
      expect(Math.fround((value - center[featureIndex]) * scale[featureIndex])).toBe(normalized[offset]);
      expect(Math.fround(value * halfRange[featureIndex] + center[featureIndex])).toBe(unnormalized[offset]);
    });
  });
});
