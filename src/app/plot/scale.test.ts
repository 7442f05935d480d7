import { describe, expect, test } from 'vitest';
import { linearScale, nearestIndex, paddedDomain } from './scale';

describe('linearScale', () => {
  test('maps the domain onto the range and inverts it', () => {
    // [0, 10] → [40, 240]: slope 20 px per unit, so 2.5 → 40 + 50 = 90.
    const x = linearScale([0, 10], [40, 240]);
    expect(x(2.5)).toBe(90);
    expect(x.invert(90)).toBe(2.5);
    // A reversed range (SVG y grows downward): [−1, 1] → [100, 0], so 0.5 → 100 − 75 = 25.
    const y = linearScale([-1, 1], [100, 0]);
    expect(y(0.5)).toBe(25);
    expect(y.invert(25)).toBe(0.5);
  });

  test('puts everything mid-range for a zero-width domain', () => {
    const x = linearScale([3, 3], [0, 100]);
    expect(x(3)).toBe(50);
    expect(x(-7)).toBe(50);
    expect(x.invert(12)).toBe(3);
  });
});

describe('nearestIndex', () => {
  const xs = [0, 10, 20, 40];
  test('finds the nearest entry, the left one on a tie', () => {
    expect(nearestIndex(xs, -5)).toBe(0);
    expect(nearestIndex(xs, 4)).toBe(0);
    expect(nearestIndex(xs, 5)).toBe(0);
    expect(nearestIndex(xs, 6)).toBe(1);
    expect(nearestIndex(xs, 29)).toBe(2);
    expect(nearestIndex(xs, 31)).toBe(3);
    expect(nearestIndex(xs, 99)).toBe(3);
    expect(nearestIndex([], 1)).toBe(-1);
  });

  test('agrees with a linear scan on random sorted data', () => {
    const sorted = Array.from({ length: 200 }, () => Math.random() * 1000).sort((a, b) => a - b);
    for (let trial = 0; trial < 500; trial++) {
      const x = Math.random() * 1100 - 50;
      let best = 0;
      for (let index = 1; index < sorted.length; index++) if (Math.abs(sorted[index] - x) < Math.abs(sorted[best] - x)) best = index;
      expect(Math.abs(sorted[nearestIndex(sorted, x)] - x)).toBe(Math.abs(sorted[best] - x));
    }
  });
});

describe('paddedDomain', () => {
  test('pads the finite range by 5% each side', () => {
    // [2, 12]: span 10, pad 0.5.
    expect(paddedDomain([2, NaN, 12, Infinity, 7])).toEqual([1.5, 12.5]);
  });

  test('widens a flat series and falls back to [0, 1]', () => {
    // 4 ± 10% of 4 = [3.6, 4.4].
    const [lo, hi] = paddedDomain([4, 4]);
    expect(lo).toBeCloseTo(3.6, 12);
    expect(hi).toBeCloseTo(4.4, 12);
    expect(paddedDomain([0, 0])).toEqual([0, 1]);
    expect(paddedDomain([NaN])).toEqual([0, 1]);
    expect(paddedDomain([])).toEqual([0, 1]);
  });
});
