import { describe, expect, it } from 'vitest';
import { niceTicks, niceTicksAbove } from './nice-ticks';

describe('niceTicks', () => {
  it('picks 1, 2 or 5 × 10^k steps inside the range', () => {
    // range 0..1, 4 ticks: rough step 1/3 = 0.333; nearest of 0.1, 0.2, 0.5, 1 is 0.2 (|0.2 − 0.333| = 0.133 < 0.167).
    expect(niceTicks(0, 1, 4)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    // range −73.6..−41.2: rough 32.4 / 3 = 10.8 → 10; multiples of 10 inside: −70, −60, −50.
    expect(niceTicks(-73.6, -41.2, 4)).toEqual([-70, -60, -50]);
    // range 0.0123..0.0456: rough 0.0111 → 0.01; ticks 0.02, 0.03, 0.04.
    expect(niceTicks(0.0123, 0.0456, 4)).toEqual([0.02, 0.03, 0.04]);
    // range 0..2048: rough 682.7 → 500 (|500 − 682.7| = 182.7 < |1000 − 682.7| = 317.3); ticks 0, 500, …, 2000.
    expect(niceTicks(0, 2048, 4)).toEqual([0, 500, 1000, 1500, 2000]);
  });

  it('keeps ticks exact decimals, inside [lo, hi], evenly spaced, at most count + 2 of them', () => {
    for (let trial = 0; trial < 200; trial++) {
      const lo = (Math.random() - 0.5) * 10 ** (Math.random() * 8 - 4);
      const hi = lo + 10 ** (Math.random() * 8 - 4);
      const ticks = niceTicks(lo, hi, 4);
      expect(ticks.length).toBeGreaterThanOrEqual(1);
      expect(ticks.length).toBeLessThanOrEqual(6);
      for (const tick of ticks) {
        expect(tick).toBeGreaterThanOrEqual(lo - 1e-9 * Math.abs(hi - lo));
        expect(tick).toBeLessThanOrEqual(hi + 1e-9 * Math.abs(hi - lo));
        expect(String(tick).length).toBeLessThan(20);
      }
      for (let index = 2; index < ticks.length; index++) {
        expect(ticks[index] - ticks[index - 1]).toBeCloseTo(ticks[1] - ticks[0], 9);
      }
    }
  });

  it('returns the single value for an empty range and nothing for non-finite bounds', () => {
    expect(niceTicks(3, 3, 4)).toEqual([3]);
    expect(niceTicks(Number.NaN, 1, 4)).toEqual([]);
    expect(niceTicks(0, Infinity, 4)).toEqual([]);
  });
});

describe('niceTicksAbove', () => {
  it('ends one round step above the top', () => {
    // The step is niceTicks' for 0..1.15·top. 0..0.575: rough 0.192 → 0.2; floor(0.5 / 0.2) + 1 = 3 steps → 0.6.
    expect(niceTicksAbove(0.5, 4)).toEqual([0, 0.2, 0.4, 0.6]);
    // 0..1.15: rough 0.383 → 0.5; a top on a tick still gets one more: floor(2) + 1 = 3 steps → 1.5.
    expect(niceTicksAbove(1, 4)).toEqual([0, 0.5, 1, 1.5]);
    // 0..0.184: rough 0.0613 → 0.05; floor(3.2) + 1 = 4 steps → 0.2.
    expect(niceTicksAbove(0.16, 4)).toEqual([0, 0.05, 0.1, 0.15, 0.2]);
  });

  it('falls back to [0, 1] for a top that is not a positive number', () => {
    expect(niceTicksAbove(0, 4)).toEqual(niceTicks(0, 1, 4));
    expect(niceTicksAbove(Number.NaN, 4)).toEqual(niceTicks(0, 1, 4));
  });
});
