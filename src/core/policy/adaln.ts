import * as tf from '@tensorflow/tfjs';

/**
 * Standardization over the last axis without affine parameters: x̂ = (x − μ)/σ, σ = √(var + ε).
 * Gradient written out (dx = (dŷ − mean(dŷ) − x̂·mean(dŷ⊙x̂))/σ), which skips the chain of
 * broadcast reductions the built-in gradient of `tf.moments` runs.
 */
export function standardizeLastAxis(epsilon: number): (x: tf.Tensor) => tf.Tensor {
  return tf.customGrad(((x: tf.Tensor, save: (tensors: tf.Tensor[]) => void) => {
    // tf.moments' values, without its float32 cast (a copy on wasm) and its second x − μ.
    const centered = tf.sub(x, tf.mean(x, -1, true));
    const invStd = tf.rsqrt(tf.add(tf.mean(tf.square(centered), -1, true), epsilon));
    const normalized = tf.mul(centered, invStd);
    save([normalized, invStd]);
    return {
      value: normalized,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [savedNormalized, savedInvStd] = saved;
        const centered = tf.sub(dy, tf.mean(dy, -1, true));
        return tf.mul(tf.sub(centered, tf.mul(savedNormalized, tf.mean(tf.mul(dy, savedNormalized), -1, true))), savedInvStd);
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor) => tf.Tensor;
}

/** LayerNorm over the last axis without affine parameters, ε = 1e-6 (DiT's AdaLN). */
export const plainLayerNorm = standardizeLastAxis(1e-6);

/**
 * AdaLN modulation (DiT): LN(x)·(1 + scale) + shift, with x [B, T, D] and scale, shift [B, D]
 * broadcast over the tokens.
 */
export function modulate(x: tf.Tensor, shift: tf.Tensor2D, scale: tf.Tensor2D): tf.Tensor {
  const [batch, width] = shift.shape;
  return tf.add(tf.mul(plainLayerNorm(x), tf.reshape(tf.add(scale, 1), [batch, 1, width])), tf.reshape(shift, [batch, 1, width]));
}
