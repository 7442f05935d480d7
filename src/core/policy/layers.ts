import * as tf from '@tensorflow/tfjs';

/** Looks up a parameter by its dotted name. */
export type ParamLookup = (name: string) => tf.Tensor;

/**
 * x [N, in] · kernel [in, out] → [N, out]. The built-in gradient uses transposed matmuls, which the
 * wasm backend runs an order of magnitude slower than plain ones; transposing explicitly first
 * gives the same values: dx = dy · kernelᵀ, dkernel = xᵀ · dy.
 */
const matMulWithExplicitTransposeGrad = tf.customGrad(((x: tf.Tensor2D, kernel: tf.Tensor2D, save: (tensors: tf.Tensor[]) => void) => {
  save([x, kernel]);
  return {
    value: tf.matMul(x, kernel),
    gradFunc: (dy: tf.Tensor2D, saved: tf.Tensor[]) => [
      tf.matMul(dy, tf.transpose(saved[1] as tf.Tensor2D)),
      tf.matMul(tf.transpose(saved[0] as tf.Tensor2D), dy),
    ],
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor2D, kernel: tf.Tensor2D) => tf.Tensor2D;

/** x [..., in] → [..., out] with `${prefix}.kernel` [in, out] and `${prefix}.bias` [out]. */
export function dense(param: ParamLookup, prefix: string, x: tf.Tensor): tf.Tensor {
  const kernel = param(`${prefix}.kernel`) as tf.Tensor2D;
  const bias = param(`${prefix}.bias`);
  if (x.rank === 2) return tf.add(matMulWithExplicitTransposeGrad(x as tf.Tensor2D, kernel), bias);
  const lead = x.shape.slice(0, -1);
  const flat = tf.reshape(x, [-1, x.shape[x.rank - 1]]) as tf.Tensor2D;
  return tf.reshape(tf.add(matMulWithExplicitTransposeGrad(flat, kernel), bias), [...lead, kernel.shape[1]]);
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
