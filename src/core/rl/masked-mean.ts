import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import type { FlatArray } from './advantages/rollout-layout';

/**
 * Mean of `values` over entries whose mask is nonzero (DESIGN.md §4: every
 * mean is a masked mean), summed in float64. Masked entries are never read,
 * so NaN there cannot leak. No valid entry gives 0.
 * `values` and `mask` share any flat layout.
 */
export function maskedMean(values: FlatArray, mask?: FlatArray): number {
  if (mask !== undefined && mask.length !== values.length) {
    throw new ShapeError('mask', `mask has length ${mask.length}, expected values.length = ${values.length}`);
  }
  let sum = 0;
  let count = 0;
  for (let flatIndex = 0; flatIndex < values.length; flatIndex++) {
    if (mask !== undefined && mask[flatIndex] === 0) continue;
    sum += values[flatIndex];
    count++;
  }
  return count === 0 ? 0 : sum / count;
}

/**
 * Reshapes `tensor` (shape a leading prefix of `shape`, e.g. [B] for
 * [B, Ta, Ae]) to [..., 1, 1] so ordinary broadcasting lines it up with the
 * leading axes. Throws a ShapeError naming `field` otherwise.
 */
export function alignLeading(field: string, tensor: tf.Tensor, shape: readonly number[]): tf.Tensor {
  const prefix = shape.slice(0, tensor.rank);
  if (tensor.rank > shape.length || tensor.shape.some((size, axis) => size !== prefix[axis])) {
    throw new ShapeError(field, `${field} has shape [${tensor.shape.join(',')}], expected [${shape.join(',')}] or a leading prefix of it`);
  }
  if (tensor.rank === shape.length) return tensor;
  return tf.reshape(tensor, [...tensor.shape, ...new Array<number>(shape.length - tensor.rank).fill(1)]);
}

/**
 * Boolean keep-mask of `shape` from an optional 0/1 mask over its leading
 * axes; everything is kept when `mask` is undefined. Returns [...shape].
 */
export function keepMask(mask: tf.Tensor | undefined, shape: readonly number[]): tf.Tensor {
  return tf.tidy(() => {
    if (mask === undefined) return tf.ones(shape as number[], 'bool');
    const aligned = alignLeading('mask', mask, shape);
    return tf.broadcastTo(tf.greater(tf.cast(aligned, 'float32'), 0), shape as number[]);
  });
}

/**
 * Differentiable masked mean: Σ keep·x / max(Σ keep, 1) over all elements.
 * `mask` is 0/1 over a leading prefix of `values`' axes (e.g. [B] for
 * [B, Ta, Ae]); each element counts as one unit. Returns a scalar.
 */
export function maskedMeanTf(values: tf.Tensor, mask?: tf.Tensor): tf.Scalar {
  return tf.tidy(() => {
    if (mask === undefined) return tf.mean(values);
    const keep = keepMask(mask, values.shape);
    const total = tf.sum(tf.where(keep, values, tf.zerosLike(values)));
    const count = tf.sum(tf.cast(keep, 'float32'));
    return tf.div(total, tf.maximum(count, 1)) as tf.Scalar;
  });
}

/** Largest valid element (−Infinity when none is valid); mask as in maskedMeanTf. Returns a scalar. */
export function maskedMaxTf(values: tf.Tensor, mask?: tf.Tensor): tf.Scalar {
  return tf.tidy(() => {
    const keep = keepMask(mask, values.shape);
    return tf.max(tf.where(keep, values, tf.fill(values.shape, -Infinity))) as tf.Scalar;
  });
}

/** Replaces masked elements by 0 so that NaN there reaches neither the loss nor its gradient. Returns [...values.shape]. */
export function zeroMasked(values: tf.Tensor, keep: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.where(keep, values, tf.zerosLike(values)));
}
