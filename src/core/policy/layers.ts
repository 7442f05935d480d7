import * as tf from '@tensorflow/tfjs';

/** Looks up a parameter by its dotted name. */
export type ParamLookup = (name: string) => tf.Tensor;

/**
 * xᵀ for x [R, C]. The wasm backend's rank-2 transpose walks memory without blocking and costs
 * about as much as a matmul of the same size once both sides reach a few hundred; the same
 * permutation over 8×8 (or 4×4) tiles, as a rank-4 transpose, runs about 3× faster there. Small
 * or odd shapes, where it does not pay, keep the plain transpose. Both give the exact same values.
 */
export function transpose2d(x: tf.Tensor2D): tf.Tensor2D {
  const [rows, cols] = x.shape;
  const tile = rows % 8 === 0 && cols % 8 === 0 ? 8 : rows % 4 === 0 && cols % 4 === 0 ? 4 : 0;
  if (tile === 0 || rows < 256 || cols < 256) return tf.transpose(x);
  const tiled = tf.reshape(x, [rows / tile, tile, cols / tile, tile]);
  return tf.reshape(tf.transpose(tiled, [2, 3, 0, 1]), [cols, rows]);
}

/**
 * x [N, in] · kernel [in, out] + bias [out] → [N, out], with its gradient written out. The built-in
 * gradients use transposed matmuls and, for the bias, a sum over the batch axis, which the wasm
 * backend runs far slower than plain matmuls; these give the same values:
 * dx = dy · kernelᵀ, dkernel = xᵀ · dy, dbias = 1ᵀ · dy.
 */
const denseWithExplicitGrads = tf.customGrad(((x: tf.Tensor2D, kernel: tf.Tensor2D, bias: tf.Tensor1D, save: (tensors: tf.Tensor[]) => void) => {
  save([x, kernel]);
  return {
    value: tf.fused.matMul({ a: x, b: kernel, bias }),
    gradFunc: (dy: tf.Tensor2D, saved: tf.Tensor[]) => [
      tf.matMul(dy, transpose2d(saved[1] as tf.Tensor2D)),
      tf.matMul(transpose2d(saved[0] as tf.Tensor2D), dy),
      tf.reshape(tf.matMul(tf.ones([1, dy.shape[0]]), dy), [dy.shape[1]]),
    ],
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor2D, kernel: tf.Tensor2D, bias: tf.Tensor1D) => tf.Tensor2D;

/** x [..., in] · kernel [in, out] + bias [out] → [..., out] (the matmul of `dense`, on tensors rather than names). */
export function affine(x: tf.Tensor, kernel: tf.Tensor2D, bias: tf.Tensor1D): tf.Tensor {
  if (x.rank === 2) return denseWithExplicitGrads(x as tf.Tensor2D, kernel, bias);
  const lead = x.shape.slice(0, -1);
  const flat = tf.reshape(x, [-1, x.shape[x.rank - 1]]) as tf.Tensor2D;
  return tf.reshape(denseWithExplicitGrads(flat, kernel, bias), [...lead, kernel.shape[1]]);
}

/** x [..., in] → [..., out] with `${prefix}.kernel` [in, out] and `${prefix}.bias` [out]. */
export function dense(param: ParamLookup, prefix: string, x: tf.Tensor): tf.Tensor {
  return affine(x, param(`${prefix}.kernel`) as tf.Tensor2D, param(`${prefix}.bias`) as tf.Tensor1D);
}

/** SiLU (swish): x·sigmoid(x). */
export function silu(x: tf.Tensor): tf.Tensor {
  return tf.mul(x, tf.sigmoid(x));
}

/** LayerNorm over the last axis with `${prefix}.gamma` and `${prefix}.beta`. */
export function layerNorm(param: ParamLookup, prefix: string, x: tf.Tensor, epsilon = 1e-5): tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  const normalized = tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, epsilon)));
  return tf.add(tf.mul(normalized, param(`${prefix}.gamma`)), param(`${prefix}.beta`));
}

/** Dense + SiLU for each of `${prefix}.layers.0..count-1`. */
export function mlpLayers(param: ParamLookup, prefix: string, x: tf.Tensor, count: number): tf.Tensor {
  let h = x;
  for (let layerIndex = 0; layerIndex < count; layerIndex++) h = silu(dense(param, `${prefix}.layers.${layerIndex}`, h));
  return h;
}
