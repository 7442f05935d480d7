import * as tf from '@tensorflow/tfjs';
import { conv1d } from './conv1d';
import { groupNorm } from './group-norm';
import { affine, dense, type ParamLookup } from './layers';
import { mish } from './mish';

/** Conv1d (same padding) → GroupNorm → Mish over x [B, L, in] → [B, L, out]: `${prefix}.conv` and `${prefix}.norm`. */
export function convBlock(param: ParamLookup, prefix: string, x: tf.Tensor3D, groups: number): tf.Tensor3D {
  return mish(groupNorm(param, `${prefix}.norm`, conv1d(param, `${prefix}.conv`, x), groups)) as tf.Tensor3D;
}

/**
 * FiLM: per-channel scale and bias from the conditioning, h [B, L, C] and activatedCond = Mish(cond) [B, D]:
 *   [scale | bias] = activatedCond · `${prefix}.kernel` [D, 2C] + `${prefix}.bias`;  y[l, c] = scale[c]·h[l, c] + bias[c]
 * (Diffusion Policy's cond_predict_scale: the scale is used as it is, not as 1 + scale).
 */
export function film(param: ParamLookup, prefix: string, h: tf.Tensor3D, activatedCond: tf.Tensor2D): tf.Tensor3D {
  const [batch, , channels] = h.shape;
  const modulation = tf.reshape(dense(param, prefix, activatedCond), [batch, 1, 2 * channels]);
  const scale = tf.slice(modulation, [0, 0, 0], [batch, 1, channels]);
  const bias = tf.slice(modulation, [0, 0, channels], [batch, 1, channels]);
  return tf.add(tf.mul(h, scale), bias) as tf.Tensor3D;
}

/**
 * Conditional residual block, x [B, L, in] → [B, L, out]:
 *   h = FiLM(convBlock₀(x), cond);  y = convBlock₁(h) + skip(x),
 * skip = a 1×1 conv `${prefix}.residual` (a dense over channels) when in ≠ out, else x.
 */
export function residualBlock(param: ParamLookup, prefix: string, x: tf.Tensor3D, activatedCond: tf.Tensor2D, groups: number, outChannels: number): tf.Tensor3D {
  const h = film(param, `${prefix}.film`, convBlock(param, `${prefix}.block0`, x, groups), activatedCond);
  const out = convBlock(param, `${prefix}.block1`, h, groups);
  const skip = x.shape[2] === outChannels ? x : affine(x, param(`${prefix}.residual.kernel`) as tf.Tensor2D, param(`${prefix}.residual.bias`) as tf.Tensor1D);
  return tf.add(out, skip) as tf.Tensor3D;
}
