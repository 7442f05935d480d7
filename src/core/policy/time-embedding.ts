import * as tf from '@tensorflow/tfjs';

/** t is scaled before the sinusoids so that the grid spacing 1/K is well resolved. */
const TIME_SCALE = 1000;
const MAX_PERIOD = 10000;

/** Frequencies f_j = exp(−ln(MAX_PERIOD)·j/half) for j = 0..half−1, as plain numbers. */
export function embeddingFrequencies(dim: number): number[] {
  const half = dim / 2;
  return Array.from({ length: half }, (_, j) => Math.exp((-Math.log(MAX_PERIOD) * j) / half));
}

/** t [B] → [B, dim]: [sin(1000·t·f_j) | cos(1000·t·f_j)]. */
export function sinusoidalEmbedding(t: tf.Tensor1D, dim: number): tf.Tensor2D {
  return tf.tidy(() => {
    const freqs = tf.tensor2d(embeddingFrequencies(dim), [1, dim / 2]);
    const angles = tf.mul(tf.reshape(tf.mul(t, TIME_SCALE), [-1, 1]), freqs);
    return tf.concat([tf.sin(angles), tf.cos(angles)], 1) as tf.Tensor2D;
  });
}
