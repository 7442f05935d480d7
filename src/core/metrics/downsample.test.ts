import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors';
import { createRng } from '../random';
import { downsample, downsampleIndices } from './downsample';

function argExtreme(values: number[], better: (a: number, b: number) => boolean): number {
  let best = -1;
  values.forEach((value, index) => {
    if (Number.isFinite(value) && (best < 0 || better(value, values[best]))) best = index;
  });
  return best;
}

describe('downsampleIndices', () => {
  it('keeps short series whole', () => {
    expect(downsampleIndices([5, 4, 3], 10)).toEqual([0, 1, 2]);
    expect(downsampleIndices([], 10)).toEqual([]);
  });

  it('keeps first, last and each bucket\'s min and max, by hand', () => {
    // 10 points, maxPoints 6 → 2 buckets over interior indices 1..8: [1, 5) and [5, 9).
    // Bucket 1 values 9, 1, 5, 7 → min at 2, max at 1; bucket 2 values 2, 8, 3, 0 → min at 8, max at 6.
    const values = [4, 9, 1, 5, 7, 2, 8, 3, 0, 6];
    expect(downsampleIndices(values, 6)).toEqual([0, 1, 2, 6, 8, 9]);
    expect(downsampleIndices(values, 2)).toEqual([0, 9]);
  });

  it('stays within bounds, ordered, and keeps ends and global extremes on random series', () => {
    const seed = Date.now() % 1_000_000;
    const rng = createRng(seed);
    for (let trial = 0; trial < 30; trial++) {
      const length = 1 + rng.int(20_000);
      const maxPoints = 4 + rng.int(3000);
      const values = Array.from({ length }, (_, index) => (rng.uniform() < 0.02 ? NaN : Math.sin(index / 50) + rng.normal()));
      const kept = downsampleIndices(values, maxPoints);
      const context = `seed ${seed} trial ${trial}`;
      expect(kept.length, context).toBeLessThanOrEqual(maxPoints);
      expect(kept[0], context).toBe(0);
      expect(kept[kept.length - 1], context).toBe(length - 1);
      for (let i = 1; i < kept.length; i++) expect(kept[i], context).toBeGreaterThan(kept[i - 1]);
      const minIndex = argExtreme(values, (a, b) => a < b);
      const maxIndex = argExtreme(values, (a, b) => a > b);
      if (minIndex >= 0) expect(kept, context).toContain(minIndex);
      if (maxIndex >= 0) expect(kept, context).toContain(maxIndex);
    }
  });

  it('uses the default of 2000 points', () => {
    const values = Array.from({ length: 10_000 }, (_, index) => index % 7);
    const kept = downsampleIndices(values);
    expect(kept.length).toBeLessThanOrEqual(2000);
    expect(kept.length).toBeGreaterThan(1900);
  });

  it('keeps one point of an all-NaN bucket', () => {
    const values = [1, NaN, NaN, NaN, NaN, 2, 3, 4, 5, 6];
    // buckets [1, 5) all NaN → keeps 1; [5, 9) → min 5, max 8.
    expect(downsampleIndices(values, 6)).toEqual([0, 1, 5, 8, 9]);
  });

  it('downsamples items by a value accessor', () => {
    const items = [4, 9, 1, 5, 7, 2, 8, 3, 0, 6].map((y, x) => ({ x, y }));
    expect(downsample(items, (item) => item.y, 6).map((item) => item.x)).toEqual([0, 1, 2, 6, 8, 9]);
  });

  it('rejects maxPoints below 2 or fractional', () => {
    expect(() => downsampleIndices([1, 2, 3], 1)).toThrow(ConfigError);
    expect(() => downsampleIndices([1, 2, 3], 2.5)).toThrow('maxPoints must be an integer ≥ 2 (got 2.5)');
  });
});
