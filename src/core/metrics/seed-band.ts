/**
 * One setting's learning curve over its seeds: each seed's curve interpolated linearly onto a common
 * grid of x (seeds log at different env steps), then their mean and their min–max band at each grid
 * point. The grid spans only the x every seed reached, so no seed's curve is extrapolated.
 */

/** One seed's curve: x ascending (env steps) and y (the metric), same length. */
export interface SeedCurve {
  readonly xs: ArrayLike<number>;
  readonly ys: ArrayLike<number>;
}

export interface SeedBand {
  readonly x: number[];
  readonly mean: number[];
  readonly low: number[];
  readonly high: number[];
  /** Seeds with at least one finite point: the curves the band is over. */
  readonly seeds: number;
}

/** Grid points at most; a longer union of the seeds' x is replaced by this many evenly spaced points. */
export const BAND_MAX_POINTS = 500;

/** A curve's finite points, by x, one per x (the last logged). */
function finitePoints(curve: SeedCurve): [number, number][] {
  const byX = new Map<number, number>();
  for (let index = 0; index < curve.xs.length; index++) {
    const [x, y] = [curve.xs[index], curve.ys[index]];
    if (Number.isFinite(x) && Number.isFinite(y)) byX.set(x, y);
  }
  return [...byX].sort(([a], [b]) => a - b);
}

/** y at `x` on the polyline through `points` (x within their span), found by bisection. */
function interpolate(points: readonly [number, number][], x: number): number {
  // The first point at or past x.
  let [low, high] = [0, points.length - 1];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (points[middle][0] < x) low = middle + 1;
    else high = middle;
  }
  if (high === 0 || points[high][0] === x) return points[high][1];
  const [x0, y0] = points[high - 1];
  const [x1, y1] = points[high];
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

export function seedBand(curves: readonly SeedCurve[], maxPoints = BAND_MAX_POINTS): SeedBand {
  const seeds = curves.map(finitePoints).filter((points) => points.length > 0);
  const empty: SeedBand = { x: [], mean: [], low: [], high: [], seeds: seeds.length };
  if (seeds.length === 0) return empty;
  const from = Math.max(...seeds.map((points) => points[0][0]));
  const to = Math.min(...seeds.map((points) => points.at(-1)![0]));
  if (from > to) return empty;
  let grid = [...new Set(seeds.flatMap((points) => points.map(([x]) => x)))].filter((x) => x >= from && x <= to).sort((a, b) => a - b);
  if (grid.length > maxPoints) grid = Array.from({ length: maxPoints }, (_, index) => from + ((to - from) * index) / (maxPoints - 1));
  const band = { x: grid, mean: [] as number[], low: [] as number[], high: [] as number[], seeds: seeds.length };
  for (const x of grid) {
    const values = seeds.map((points) => interpolate(points, x));
    band.mean.push(values.reduce((sum, value) => sum + value, 0) / values.length);
    band.low.push(Math.min(...values));
    band.high.push(Math.max(...values));
  }
  return band;
}
