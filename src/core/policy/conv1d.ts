import * as tf from '@tensorflow/tfjs';
import { affine, type ParamLookup } from './layers';

/**
 * 1-D convolutions over the positions of x [B, L, C] (channels last, as tfjs's conv1d), each one matmul on shifted
 * copies of x laid side by side (im2col). The wasm backend has no kernel for the conv filter's gradient, and the
 * matmul path is its fastest op, so training runs the same ops on every backend. Kernels are `[taps, in, out]`
 * (tfjs's conv1d filter layout); torch's Conv1d weight [out, in, taps] is its transpose.
 */

/** x [B, L, C] shifted by `offset` positions (x'[l] = x[l + offset]), zero where l + offset is outside 0..L−1. */
function shifted(x: tf.Tensor3D, offset: number): tf.Tensor3D {
  const [batch, length, channels] = x.shape;
  if (offset === 0) return x;
  if (Math.abs(offset) >= length) return tf.zeros([batch, length, channels]);
  const kept = tf.slice(x, [0, Math.max(offset, 0), 0], [batch, length - Math.abs(offset), channels]);
  return tf.pad(kept, [[0, 0], [Math.max(-offset, 0), Math.max(offset, 0)], [0, 0]]) as tf.Tensor3D;
}

/** Σ over taps j of columns[j] · kernel[j] + bias, where columns are [B, L, C] each → [B, L, out]. */
function tapsMatmul(columns: tf.Tensor3D[], kernel: tf.Tensor, bias: tf.Tensor1D): tf.Tensor3D {
  const [taps, inChannels, outChannels] = kernel.shape;
  const side = columns.length === 1 ? columns[0] : tf.concat(columns, 2);
  return affine(side, tf.reshape(kernel, [taps * inChannels, outChannels]) as tf.Tensor2D, bias) as tf.Tensor3D;
}

/**
 * Same-padded convolution (torch's Conv1d(in, out, k, padding = k//2), k odd), x [B, L, in] → [B, L, out] with
 * `${prefix}.kernel` [k, in, out] and `${prefix}.bias` [out]:
 *   y[l, o] = bias[o] + Σ_j Σ_i x[l + j − (k−1)/2, i]·kernel[j, i, o], x = 0 outside the L positions.
 */
export function conv1d(param: ParamLookup, prefix: string, x: tf.Tensor3D): tf.Tensor3D {
  const kernel = param(`${prefix}.kernel`);
  const bias = param(`${prefix}.bias`) as tf.Tensor1D;
  const taps = kernel.shape[0];
  if (taps === 1) return tapsMatmul([x], kernel, bias);
  const [batch, length, channels] = x.shape;
  const half = (taps - 1) / 2;
  // One zero pad, then tap j is the window starting at j (x shifted by j − half).
  const padded = tf.pad(x, [[0, 0], [half, half], [0, 0]]);
  const columns = Array.from({ length: taps }, (_, tap) => tf.slice(padded, [0, tap, 0], [batch, length, channels]) as tf.Tensor3D);
  return tapsMatmul(columns, kernel, bias);
}

/**
 * Strided down-sampling (torch's Conv1d(C, C, 3, stride 2, padding 1)), x [B, L, C] with L even → [B, L/2, C]:
 *   y[j] = bias + x[2j−1]·K₀ + x[2j]·K₁ + x[2j+1]·K₂, x[−1] = 0. The even and odd positions come from one reshape.
 */
export function downsample1d(param: ParamLookup, prefix: string, x: tf.Tensor3D): tf.Tensor3D {
  const [batch, length, channels] = x.shape;
  const pairs = tf.reshape(x, [batch, length / 2, 2 * channels]);
  const even = tf.slice(pairs, [0, 0, 0], [batch, length / 2, channels]) as tf.Tensor3D;
  const odd = tf.slice(pairs, [0, 0, channels], [batch, length / 2, channels]) as tf.Tensor3D;
  return tapsMatmul([shifted(odd, -1), even, odd], param(`${prefix}.kernel`), param(`${prefix}.bias`) as tf.Tensor1D);
}

/**
 * Up-sampling by a transposed convolution (torch's ConvTranspose1d(C, C, 4, stride 2, padding 1), which Diffusion
 * Policy uses), x [B, n, C] → [B, 2n, C] with `${prefix}.kernel` [4, C, C] (tap, in, out). Output o reads input i
 * with tap k = o + 1 − 2i, so
 *   y[2m] = bias + x[m]·K₁ + x[m−1]·K₃,   y[2m+1] = bias + x[m+1]·K₀ + x[m]·K₂   (x = 0 outside 0..n−1).
 * One matmul gives both phases: [x[m−1] | x[m] | x[m+1]] · [[K₃, 0], [K₁, K₂], [0, K₀]] → [y[2m] | y[2m+1]], and a
 * reshape interleaves them.
 */
export function upsample1d(param: ParamLookup, prefix: string, x: tf.Tensor3D): tf.Tensor3D {
  const [batch, length, channels] = x.shape;
  const kernel = param(`${prefix}.kernel`);
  const bias = param(`${prefix}.bias`) as tf.Tensor1D;
  const [k0, k1, k2, k3] = tf.split(tf.reshape(kernel, [4 * channels, channels]), 4, 0);
  const zero = tf.zeros([channels, channels]);
  const phases = tf.concat([tf.concat([k3, k1, zero], 0), tf.concat([zero, k2, k0], 0)], 1) as tf.Tensor2D;
  const side = tf.concat([shifted(x, -1), x, shifted(x, 1)], 2);
  const both = affine(side, phases, tf.concat([bias, bias]) as tf.Tensor1D);
  return tf.reshape(both, [batch, 2 * length, channels]);
}
