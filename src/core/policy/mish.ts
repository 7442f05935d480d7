import * as tf from '@tensorflow/tfjs';

/**
 * Mish (torch.nn.Mish): y = x·tanh(softplus(x)), with tfjs's softplus kernel (log(1 + eˣ), x itself above ~14).
 * Gradient written out, dy/dx = tanh(sp) + x·(1 − tanh²(sp))·sigmoid(x) (since sp' = sigmoid), which saves the
 * built-in chain through softplus and tanh that the UNet's many Mish layers would otherwise run backwards.
 */
export const mish = tf.customGrad(((x: tf.Tensor, save: (tensors: tf.Tensor[]) => void) => {
  const tanhSoftplus = tf.tanh(tf.softplus(x));
  save([x, tanhSoftplus]);
  return {
    value: tf.mul(x, tanhSoftplus),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [savedX, savedTanh] = saved;
      const slope = tf.add(savedTanh, tf.mul(tf.mul(savedX, tf.sub(1, tf.square(savedTanh))), tf.sigmoid(savedX)));
      return tf.mul(dy, slope);
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor) => tf.Tensor;
