import * as tf from '@tensorflow/tfjs';

/**
 * Identity in the forward pass with a zero gradient (tfjs has no public stopGradient).
 * Used for `detach_critic_input` and for shortcut self-consistency targets.
 */
const zeroGradientIdentity = ((x: tf.Tensor) => ({
  value: tf.clone(x),
  gradFunc: (dy: tf.Tensor) => tf.zerosLike(dy),
})) as unknown as Parameters<typeof tf.customGrad>[0];

export const stopGradient = tf.customGrad(zeroGradientIdentity) as (x: tf.Tensor) => tf.Tensor;
