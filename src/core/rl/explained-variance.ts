import { ShapeError } from '../errors';
import type { FlatArray } from './advantages/rollout-layout';

/**
 * Explained variance 1 − Var(R − V) / Var(R) over valid entries, in float64
 * (DESIGN.md §4 metric losses/explained_variance). 1 is a perfect critic, 0 no
 * better than a constant, negative worse. NaN when the returns have no
 * variance (or no entry is valid), since the ratio is then undefined.
 * `values`, `returns` and `mask` share one flat layout, e.g. [T, N].
 */
export function explainedVariance(values: FlatArray, returns: FlatArray, mask?: FlatArray): number {
  if (returns.length !== values.length) {
    throw new ShapeError('returns', `returns has length ${returns.length}, expected values.length = ${values.length}`);
  }
  if (mask !== undefined && mask.length !== values.length) {
    throw new ShapeError('mask', `mask has length ${mask.length}, expected values.length = ${values.length}`);
  }
  let count = 0, returnSum = 0, residualSum = 0;
  for (let flatIndex = 0; flatIndex < values.length; flatIndex++) {
    if (mask !== undefined && mask[flatIndex] === 0) continue;
    count++;
    returnSum += returns[flatIndex];
    residualSum += returns[flatIndex] - values[flatIndex];
  }
  if (count === 0) return NaN;
  const returnMean = returnSum / count;
  const residualMean = residualSum / count;
  let returnSquares = 0, residualSquares = 0;
  for (let flatIndex = 0; flatIndex < values.length; flatIndex++) {
    if (mask !== undefined && mask[flatIndex] === 0) continue;
    returnSquares += (returns[flatIndex] - returnMean) ** 2;
    residualSquares += (returns[flatIndex] - values[flatIndex] - residualMean) ** 2;
  }
  if (returnSquares === 0) return NaN;
  return 1 - residualSquares / returnSquares;
}
