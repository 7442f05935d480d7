/**
 * Series downsampling for charts: min-max buckets over the interior points,
 * plus the first and last points. Every bucket keeps its smallest and largest
 * finite value, so the global extremes survive whenever maxPoints ≥ 4.
 */
import { ConfigError } from '../errors';

export const DEFAULT_MAX_POINTS = 2000;

/** [T] → [M ≤ maxPoints]: increasing indices of the points to keep. */
export function downsampleIndices(values: ArrayLike<number>, maxPoints = DEFAULT_MAX_POINTS): number[] {
  if (!Number.isInteger(maxPoints) || maxPoints < 2) {
    throw new ConfigError('maxPoints', `maxPoints must be an integer ≥ 2 (got ${maxPoints})`);
  }
  const count = values.length;
  if (count <= maxPoints) return Array.from({ length: count }, (_, index) => index);
  const interior = count - 2;
  const bucketCount = Math.floor((maxPoints - 2) / 2);
  const kept = [0];
  for (let bucket = 0; bucket < bucketCount; bucket++) {
    const start = 1 + Math.floor((bucket * interior) / bucketCount);
    const end = 1 + Math.floor(((bucket + 1) * interior) / bucketCount);
    let minIndex = -1;
    let maxIndex = -1;
    for (let index = start; index < end; index++) {
      const value = values[index];
      if (!Number.isFinite(value)) continue;
      if (minIndex < 0 || value < values[minIndex]) minIndex = index;
      if (maxIndex < 0 || value > values[maxIndex]) maxIndex = index;
    }
    // A bucket with no finite value keeps its first point, so the gap stays visible.
    if (minIndex < 0) kept.push(start);
    else if (minIndex === maxIndex) kept.push(minIndex);
    else kept.push(Math.min(minIndex, maxIndex), Math.max(minIndex, maxIndex));
  }
  kept.push(count - 1);
  return kept;
}

/** The items at downsampleIndices of their values, in order. */
export function downsample<T>(items: readonly T[], valueOf: (item: T) => number, maxPoints = DEFAULT_MAX_POINTS): T[] {
  const values = items.map(valueOf);
  return downsampleIndices(values, maxPoints).map((index) => items[index]);
}
