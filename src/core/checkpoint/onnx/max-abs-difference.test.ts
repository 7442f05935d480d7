import { describe, expect, it } from 'vitest';
import { maxAbsDifference } from './max-abs-difference';

describe('maxAbsDifference', () => {
  it('is the largest elementwise gap', () => {
    // |1 − 1.5| = 0.5, |−2 − (−2)| = 0, |0.25 − 0| = 0.25 → 0.5.
    expect(maxAbsDifference([1, -2, 0.25], [1.5, -2, 0])).toBe(0.5);
    expect(maxAbsDifference([], [])).toBe(0);
  });

  it('never reports a mismatch in length or a NaN as faithful', () => {
    expect(maxAbsDifference([1, 2], [1])).toBe(Infinity);
    expect(maxAbsDifference([NaN], [0])).toBe(Infinity);
  });
});
