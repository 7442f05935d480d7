import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors';
import { createRng } from '../random';
import { emaSmooth } from './smoothing';

describe('emaSmooth', () => {
  it('matches hand-computed TensorBoard values, skipping NaN', () => {
    // w = 0.5, values 1, 2, 3, NaN, 4:
    //   n=1: last = 0.5·0 + 0.5·1 = 0.5,      debias 1 − 0.5   = 0.5    → 1
    //   n=2: last = 0.5·0.5 + 0.5·2 = 1.25,   debias 1 − 0.25  = 0.75   → 1.666…
    //   n=3: last = 0.5·1.25 + 0.5·3 = 2.125, debias 1 − 0.125 = 0.875  → 2.428571…
    //   NaN passes through and does not count
    //   n=4: last = 0.5·2.125 + 0.5·4 = 3.0625, debias 1 − 0.0625 = 0.9375 → 3.2666…
    const smoothed = emaSmooth([1, 2, 3, NaN, 4], 0.5);
    expect(smoothed[0]).toBeCloseTo(1, 14);
    expect(smoothed[1]).toBeCloseTo(1.25 / 0.75, 14);
    expect(smoothed[2]).toBeCloseTo(2.125 / 0.875, 14);
    expect(smoothed[3]).toBeNaN();
    expect(smoothed[4]).toBeCloseTo(3.0625 / 0.9375, 14);
  });

  it('uses w = 0.9 as TensorBoard does on three points', () => {
    // n=1: 0.1·10 = 1 / (1 − 0.9) = 10
    // n=2: 0.9·1 + 0.1·20 = 2.9 / (1 − 0.81 = 0.19) = 15.263157…
    // n=3: 0.9·2.9 + 0.1·0 = 2.61 / (1 − 0.729 = 0.271) = 9.630996…
    const smoothed = emaSmooth([10, 20, 0], 0.9);
    expect(Array.from(smoothed).map((value) => Number(value.toFixed(6)))).toEqual([10, 15.263158, 9.630996]);
  });

  it('is the identity at w = 0, passes infinities through, and keeps constant series exact', () => {
    expect(Array.from(emaSmooth([3, -1, 7], 0))).toEqual([3, -1, 7]);
    expect(Array.from(emaSmooth([1, Infinity, 1], 0.5))).toEqual([1, Infinity, 1]);
    expect(Array.from(emaSmooth([0.1, 0.1, 0.1, 0.1], 0.99))).toEqual([0.1, 0.1, 0.1, 0.1]);
    expect(emaSmooth([], 0.6)).toHaveLength(0);
  });

  it('equals the debiased weighted mean Σ w^(n−i)·x_i / Σ w^(n−i) on random series', () => {
    const seed = Date.now() % 1_000_000;
    const rng = createRng(seed);
    for (let trial = 0; trial < 20; trial++) {
      const weight = rng.uniform() * 0.99;
      const values = Array.from({ length: 1 + rng.int(60) }, () => (rng.uniform() < 0.1 ? NaN : rng.normal() * 10));
      const smoothed = emaSmooth(values, weight);
      const finite: number[] = [];
      values.forEach((value, index) => {
        if (Number.isNaN(value)) {
          expect(smoothed[index]).toBeNaN();
          return;
        }
        finite.push(value);
        let numerator = 0;
        let denominator = 0;
        for (let i = 0; i < finite.length; i++) {
          const w = weight ** (finite.length - 1 - i);
          numerator += w * finite[i];
          denominator += w;
        }
        expect(smoothed[index], `seed ${seed}`).toBeCloseTo(numerator / denominator, 9);
      });
    }
  });

  it('rejects weights outside [0, 1)', () => {
    expect(() => emaSmooth([1], 1)).toThrow(ConfigError);
    expect(() => emaSmooth([1], 1)).toThrow('smoothing weight must be a number in [0, 1) (got 1)');
    expect(() => emaSmooth([1], -0.1)).toThrow('(got -0.1)');
    expect(() => emaSmooth([1], NaN)).toThrow('(got NaN)');
  });
});
