import { describe, expect, it } from 'vitest';
import { createRng } from '../../random';
import { normalizeAdvantages } from './normalize';

describe('normalizeAdvantages', () => {
  it('uses only valid entries for the statistics (hand case)', () => {
    // Valid [1, 2, 3]: mean 2, population var (1 + 0 + 1)/3 = 2/3, std = 0.81650.
    // The masked 100 would shift the mean to 26.5 if it leaked.
    const out = normalizeAdvantages(Float32Array.of(1, 2, 100, 3), Float32Array.of(1, 1, 0, 1), 1e-8);
    const std = Math.sqrt(2 / 3);
    expect(out[0]).toBeCloseTo(-1 / std, 6);
    expect(out[1]).toBeCloseTo(0, 6);
    expect(out[2]).toBe(0);
    expect(out[3]).toBeCloseTo(1 / std, 6);
  });

  it('gives zero mean and unit std over valid entries on random data', () => {
    const rng = createRng(9);
    const advantages = Float32Array.from({ length: 500 }, () => 3 + 5 * rng.normal());
    const mask = Float32Array.from({ length: 500 }, () => (rng.uniform() < 0.7 ? 1 : 0));
    const out = normalizeAdvantages(advantages, mask);
    let count = 0, sum = 0, squares = 0;
    out.forEach((value, i) => {
      if (mask[i] === 0) { expect(value).toBe(0); return; }
      count++; sum += value; squares += value * value;
    });
    expect(Math.abs(sum / count)).toBeLessThan(1e-5);
    expect(Math.sqrt(squares / count)).toBeCloseTo(1, 4);
  });

  it('returns zeros when nothing is valid and rejects a mismatched mask', () => {
    expect(Array.from(normalizeAdvantages(Float32Array.of(1, 2), Float32Array.of(0, 0)))).toEqual([0, 0]);
    expect(() => normalizeAdvantages(Float32Array.of(1, 2), Float32Array.of(1))).toThrow('mask has length 1, expected advantages.length = 2');
  });
});
