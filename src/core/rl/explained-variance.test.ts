import { describe, expect, it } from 'vitest';
import { createRng } from '../random';
import { explainedVariance } from './explained-variance';

describe('explainedVariance', () => {
  it('is 1 − Var(R − V)/Var(R) over valid entries (hand case)', () => {
    // R = [1, 2, 3, 4], V = [1, 2, 3, 3]: R − V = [0, 0, 0, 1], mean 0.25,
    // Var(R − V) = (3·0.0625 + 0.5625)/4 = 0.1875, Var(R) = 1.25 → 1 − 0.15 = 0.85.
    expect(explainedVariance(Float32Array.of(1, 2, 3, 3, 50), Float32Array.of(1, 2, 3, 4, -50), Float32Array.of(1, 1, 1, 1, 0))).toBeCloseTo(0.85, 10);
    // A perfect critic explains everything; a constant one nothing.
    expect(explainedVariance(Float32Array.of(1, 2, 3), Float32Array.of(1, 2, 3))).toBe(1);
    expect(explainedVariance(Float32Array.of(7, 7, 7), Float32Array.of(1, 2, 3))).toBeCloseTo(0, 10);
  });

  it('is NaN for constant returns and rejects mismatched lengths', () => {
    expect(explainedVariance(Float32Array.of(1, 2), Float32Array.of(3, 3))).toBeNaN();
    expect(() => explainedVariance(Float32Array.of(1, 2), Float32Array.of(3))).toThrow('returns has length 1, expected values.length = 2');
  });

  it('matches a float64 reference on random data', () => {
    const rng = createRng(8);
    const returns = Float64Array.from({ length: 200 }, () => rng.normal() * 2);
    const values = returns.map((value) => value + 0.5 * rng.normal());
    const mean = (xs: Float64Array) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const variance = (xs: Float64Array) => { const m = mean(xs); return xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length; };
    const expected = 1 - variance(returns.map((value, index) => value - values[index])) / variance(returns);
    expect(explainedVariance(values, returns)).toBeCloseTo(expected, 10);
  });
});
