import * as tf from '@tensorflow/tfjs';
import { ConfigError } from '../errors';

/** Every element of `tensors` in one vector: the norm and finiteness checks then take a few ops in all. */
function flatten(tensors: readonly tf.Tensor[]): tf.Tensor1D {
  const flat = tensors.map((tensor) => tf.reshape(tensor, [-1]) as tf.Tensor1D);
  return flat.length === 1 ? flat[0] : tf.concat(flat);
}

function normOfFlat(flat: tf.Tensor1D): tf.Scalar {
  const largest = tf.max(tf.abs(flat));
  const safeLargest = tf.where(tf.greater(largest, 0), largest, tf.onesLike(largest));
  return tf.mul(largest, tf.sqrt(tf.sum(tf.square(tf.div(flat, safeLargest))))) as tf.Scalar;
}

function finiteOfFlat(flat: tf.Tensor1D): tf.Scalar {
  return tf.all(tf.logicalNot(tf.logicalOr(tf.isNaN(flat), tf.isInf(flat)))) as tf.Scalar;
}

/**
 * Global L2 norm ‖g‖ = sqrt(Σ_tensors Σ_elements g²) over every tensor
 * (DESIGN.md §4 global grad-norm clip). Computed as m·sqrt(Σ (g/m)²) with m
 * the largest |g|, so squares of large finite gradients cannot overflow
 * float32. Non-finite input gives a non-finite norm. Returns a scalar.
 */
export function globalNorm(tensors: readonly tf.Tensor[]): tf.Scalar {
  return tf.tidy(() => (tensors.length === 0 ? tf.scalar(0) : normOfFlat(flatten(tensors))));
}

/** True (as a bool scalar) when no tensor holds NaN or ±Infinity. */
export function allFinite(tensors: readonly tf.Tensor[]): tf.Scalar {
  return tf.tidy(() => (tensors.length === 0 ? tf.scalar(true, 'bool') : finiteOfFlat(flatten(tensors))));
}

/** Throws a ConfigError unless maxNorm is positive (Infinity turns clipping off). */
export function checkMaxNorm(maxNorm: number): void {
  if (!(maxNorm > 0)) throw new ConfigError('max_grad_norm', `max_grad_norm must be positive (or Infinity to turn clipping off), got ${maxNorm}`);
}

/**
 * Scales every gradient by min(1, maxNorm/‖g‖), the same factor for all, so
 * the direction is kept. Synchronous, for use inside tf.tidy. Returns new
 * tensors with the same names and shapes, plus the pre-clip norm.
 */
export function clipByGlobalNorm(grads: tf.NamedTensorMap, maxNorm: number): { grads: tf.NamedTensorMap; norm: tf.Scalar } {
  checkMaxNorm(maxNorm);
  return tf.tidy(() => {
    const names = Object.keys(grads);
    const norm = globalNorm(names.map((name) => grads[name]));
    const scale = Number.isFinite(maxNorm) ? tf.div(maxNorm, tf.maximum(norm, maxNorm)) : tf.scalar(1);
    const clipped: tf.NamedTensorMap = {};
    for (const name of names) clipped[name] = tf.mul(grads[name], scale);
    return { grads: clipped, norm };
  });
}

/**
 * Clips as clipByGlobalNorm and reads the pre-clip norm and a finiteness
 * flag with `await data()`, for logging losses/grad_norm and for a NaN guard
 * that skips the update. The input gradients stay owned by the caller; the
 * returned ones are new and owned by the caller too.
 */
export async function clipGradients(grads: tf.NamedTensorMap, maxNorm: number): Promise<{ grads: tf.NamedTensorMap; gradNorm: number; finite: boolean }> {
  checkMaxNorm(maxNorm);
  const names = Object.keys(grads);
  const { clipped, norm, finiteFlag } = tf.tidy(() => {
    if (names.length === 0) return { clipped: {} as tf.NamedTensorMap, norm: tf.scalar(0), finiteFlag: tf.scalar(true, 'bool') };
    const flat = flatten(names.map((name) => grads[name]));
    const total = normOfFlat(flat);
    const scale = Number.isFinite(maxNorm) ? tf.div(maxNorm, tf.maximum(total, maxNorm)) : tf.scalar(1);
    const scaled: tf.NamedTensorMap = {};
    for (const name of names) scaled[name] = tf.mul(grads[name], scale);
    return { clipped: scaled, norm: total, finiteFlag: finiteOfFlat(flat) };
  });
  try {
    const [normValue, finiteValue] = await Promise.all([norm.data(), finiteFlag.data()]);
    return { grads: clipped, gradNorm: normValue[0], finite: finiteValue[0] === 1 };
  } finally {
    norm.dispose();
    finiteFlag.dispose();
  }
}
