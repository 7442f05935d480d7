/** Mapping between data values and plot pixels, and back for the hover readout. */

export interface LinearScale {
  (value: number): number;
  /** The data value at a pixel. */
  invert(pixel: number): number;
}

/** Maps [d0, d1] onto [r0, r1]; a zero-width domain maps every value to the middle of the range. */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  if (!(Math.abs(span) > 0) || !Number.isFinite(span)) {
    const middle = (r0 + r1) / 2;
    return Object.assign(() => middle, { invert: () => d0 });
  }
  const slope = (r1 - r0) / span;
  return Object.assign((value: number) => r0 + (value - d0) * slope, { invert: (pixel: number) => d0 + (pixel - r0) / slope });
}

/** Index of the entry of ascending `xs` nearest to `x` (the first on a tie); −1 when `xs` is empty. */
export function nearestIndex(xs: readonly number[], x: number): number {
  if (xs.length === 0) return -1;
  let lo = 0;
  let hi = xs.length - 1;
  // Binary search for the first entry ≥ x, then compare it with its left neighbour.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && x - xs[lo - 1] <= xs[lo] - x) return lo - 1;
  return lo;
}

/**
 * The range of the finite values, padded 5% each side. A flat series is widened so it sits
 * mid-plot; no finite value gives [0, 1].
 */
export function paddedDomain(values: Iterable<number>): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    if (value < lo) lo = value;
    if (value > hi) hi = value;
  }
  if (!Number.isFinite(lo)) return [0, 1];
  if (hi - lo < 1e-12) {
    if (lo === 0) return [0, 1];
    const pad = Math.abs(lo) * 0.1;
    return [lo - pad, hi + pad];
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}
