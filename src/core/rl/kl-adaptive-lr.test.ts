import { describe, expect, it } from 'vitest';
import { adaptKlScale } from './kl-adaptive-lr';

describe('adaptKlScale', () => {
  it('divides by 1.5 above twice the target, multiplies by 1.5 below half of it, and holds in between (hand cases)', () => {
    // Target 0.01: k = 0.03 > 0.02 → 1 / 1.5 = 0.6667; k = 0.004 < 0.005 → 1 × 1.5 = 1.5; k = 0.01 → 1.
    expect(adaptKlScale(1, 0.03, 0.01)).toBeCloseTo(2 / 3, 12);
    expect(adaptKlScale(1, 0.004, 0.01)).toBeCloseTo(1.5, 12);
    expect(adaptKlScale(1, 0.01, 0.01)).toBe(1);
    expect(adaptKlScale(1, 0.02, 0.01)).toBe(1);
    expect(adaptKlScale(1, 0.005, 0.01)).toBe(1);
  });

  it('stays within [0.01, 10], ignores a missing, zero or non-finite KL, and is off with target 0', () => {
    expect(adaptKlScale(0.012, 1, 0.01)).toBe(0.01);
    expect(adaptKlScale(9, 1e-6, 0.01)).toBe(10);
    expect(adaptKlScale(2, undefined, 0.01)).toBe(2);
    expect(adaptKlScale(2, 0, 0.01)).toBe(2);
    expect(adaptKlScale(2, Number.NaN, 0.01)).toBe(2);
    expect(adaptKlScale(1, 0.5, 0)).toBe(1);
  });
});
