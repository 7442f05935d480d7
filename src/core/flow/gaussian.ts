import * as tf from '@tensorflow/tfjs';

const LOG_TWO_PI = Math.log(2 * Math.PI);

/** Elementwise log N(x; mean, std²) = −(x − mean)²/(2std²) − log std − ½·log 2π. Shapes broadcast. */
export function gaussianLogProb(x: tf.Tensor, mean: tf.Tensor, std: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const z = tf.div(tf.sub(x, mean), std);
    return tf.sub(tf.sub(tf.mul(tf.square(z), -0.5), tf.log(std)), 0.5 * LOG_TWO_PI);
  });
}

/** Elementwise log N(x; 0, 1) = −x²/2 − ½·log 2π. */
export function standardNormalLogProb(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.sub(tf.mul(tf.square(x), -0.5), 0.5 * LOG_TWO_PI));
}

/** Elementwise Gaussian entropy 0.5·log(2πe·σ²) = log σ + ½·(1 + log 2π). */
export function gaussianEntropy(std: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.add(tf.log(std), 0.5 * (1 + LOG_TWO_PI)));
}
