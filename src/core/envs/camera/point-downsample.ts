/**
 * Down-sampling a depth cloud to a fixed N points (DESIGN.md §19), as DP3 does: farthest-point
 * sampling (deterministic: it starts at the first point and breaks ties toward the lower index) or
 * seeded random sampling without replacement. With fewer than N points, all of them are taken and
 * then repeated in the same order (point i is point i mod M) up to N; with none, every point is the
 * world origin.
 */
import { ConfigError } from '../../errors';
import type { Rng } from '../../random';

export type DownsampleMethod = 'fps' | 'random';
export const DOWNSAMPLE_METHODS: readonly DownsampleMethod[] = ['fps', 'random'];

function checkCounts(count: number, numPoints: number, out: Int32Array): void {
  if (!Number.isInteger(numPoints) || numPoints < 1) throw new ConfigError('env.num_points', `env.num_points must be a positive integer, got ${numPoints}`);
  if (out.length < numPoints) throw new ConfigError('env.num_points', `an index buffer of ${out.length} cannot hold ${numPoints} sampled points`);
  if (!Number.isInteger(count) || count < 0) throw new ConfigError('env.num_points', `a cloud holds a whole number of points, got ${count}`);
}

/** Repeats the first `taken` indices in order up to numPoints. */
function padByRepeating(out: Int32Array, taken: number, numPoints: number): void {
  for (let slot = taken; slot < numPoints; slot++) out[slot] = out[slot - taken];
}

/**
 * [numPoints] indices into `points` [count, 3] chosen by farthest-point sampling: each next point is the
 * one farthest from those already chosen. `minDistances` [≥ count] is scratch space the caller may reuse.
 */
export function farthestPointIndices(points: Float64Array, count: number, numPoints: number, out: Int32Array, minDistances: Float64Array = new Float64Array(count)): Int32Array {
  checkCounts(count, numPoints, out);
  if (count === 0) return out.fill(0, 0, numPoints);
  const taken = Math.min(count, numPoints);
  minDistances.fill(Infinity, 0, count);
  let current = 0;
  for (let slot = 0; slot < taken; slot++) {
    out[slot] = current;
    const cx = points[current * 3], cy = points[current * 3 + 1], cz = points[current * 3 + 2];
    let farthest = 0;
    let farthestDistance = -1;
    for (let point = 0; point < count; point++) {
      const dx = points[point * 3] - cx, dy = points[point * 3 + 1] - cy, dz = points[point * 3 + 2] - cz;
      const distance = dx * dx + dy * dy + dz * dz;
      if (distance < minDistances[point]) minDistances[point] = distance;
      if (minDistances[point] > farthestDistance) {
        farthestDistance = minDistances[point];
        farthest = point;
      }
    }
    current = farthest;
  }
  padByRepeating(out, taken, numPoints);
  return out;
}

/**
 * [numPoints] indices into `count` points drawn uniformly without replacement from `rng` (a partial
 * Fisher–Yates shuffle), so the same seed gives the same sample. `order` [≥ count] is scratch space.
 */
export function seededRandomIndices(count: number, numPoints: number, rng: Rng, out: Int32Array, order: Int32Array = new Int32Array(count)): Int32Array {
  checkCounts(count, numPoints, out);
  if (count === 0) return out.fill(0, 0, numPoints);
  const taken = Math.min(count, numPoints);
  for (let point = 0; point < count; point++) order[point] = point;
  for (let slot = 0; slot < taken; slot++) {
    const pick = slot + rng.int(count - slot);
    const chosen = order[pick];
    order[pick] = order[slot];
    order[slot] = chosen;
    out[slot] = chosen;
  }
  padByRepeating(out, taken, numPoints);
  return out;
}

/** Writes the points `indices` [numPoints] pick from `points` [count, 3] as [numPoints, 3] at out[offset]; zeros when count is 0. */
export function writeSampledPoints(points: Float64Array, count: number, indices: Int32Array, numPoints: number, out: Float32Array, offset: number): void {
  if (count === 0) {
    out.fill(0, offset, offset + numPoints * 3);
    return;
  }
  for (let slot = 0; slot < numPoints; slot++) {
    const point = indices[slot];
    out[offset + slot * 3] = points[point * 3];
    out[offset + slot * 3 + 1] = points[point * 3 + 1];
    out[offset + slot * 3 + 2] = points[point * 3 + 2];
  }
}
