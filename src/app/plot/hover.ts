/** Which point of each series the hover cursor picks, for plots whose series have x values of their own. */
import { nearestIndex } from './scale';

export interface HoverTarget {
  /** The series' ascending x values. */
  xs: readonly number[];
  /**
   * Whether the series is only picked near its own x range: true for a run's curve on a shared
   * plot (a short run has no value far right of its end), false for series on the plot's x grid.
   */
  ranged: boolean;
}

export interface HoverPoints {
  /** The picked x nearest to the pointer, where the cursor line goes. */
  x: number;
  /** Per series, the picked index into its xs, or −1 when it has no point under the cursor. */
  indices: number[];
}

/**
 * The points under the pointer at data value `x`: each series' nearest point, except that a
 * ranged series is left out when `x` lies beyond its first or last x by more than `tolerance`
 * (data units). Undefined when no series has a point to show.
 */
export function hoverPoints(targets: readonly HoverTarget[], x: number, tolerance: number): HoverPoints | undefined {
  let best: number | undefined;
  const indices = targets.map(({ xs, ranged }) => {
    const index = nearestIndex(xs, x);
    if (index < 0) return -1;
    if (ranged && (x < xs[0] - tolerance || x > xs[xs.length - 1] + tolerance)) return -1;
    if (best === undefined || Math.abs(xs[index] - x) < Math.abs(best - x)) best = xs[index];
    return index;
  });
  return best === undefined ? undefined : { x: best, indices };
}
