/**
 * TensorBoard's scalar smoothing: an exponential moving average debiased by
 * 1 − w^n, where n counts the finite points seen so far. Non-finite points pass
 * through unchanged and do not advance the average; a constant series is
 * returned as is.
 */
import { ConfigError } from '../errors';

/** [T] → [T]: smoothed values for weight w in [0, 1). */
export function emaSmooth(values: ArrayLike<number>, weight: number): Float64Array {
  if (!(weight >= 0 && weight < 1)) {
    throw new ConfigError('smoothing', `smoothing weight must be a number in [0, 1) (got ${weight})`);
  }
  const smoothed = new Float64Array(values.length);
  const first = values.length > 0 ? values[0] : 0;
  let isConstant = true;
  for (let index = 1; index < values.length && isConstant; index++) isConstant = Object.is(values[index], first);
  let last = 0;
  let finiteCount = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (isConstant || !Number.isFinite(value)) {
      smoothed[index] = value;
      continue;
    }
    last = last * weight + (1 - weight) * value;
    finiteCount++;
    smoothed[index] = last / (1 - weight ** finiteCount);
  }
  return smoothed;
}
