import * as tf from '@tensorflow/tfjs';
import { dense, silu, type ParamLookup } from './layers';
import type { FlowPolicyOptions } from './options';
import { sinusoidalEmbedding } from './time-embedding';

/** Velocity prediction and the last hidden layer (used by `value_on: expert`). */
export type VelocityOutput = {
  /** [B, H·A], v ≈ noise − action. */
  velocity: tf.Tensor2D;
  /** [B, hidden_last] */
  hidden: tf.Tensor2D;
};

/**
 * Residual MLP velocity net (DESIGN.md §3 "Velocity nets", `mlp`).
 * Input is [x_t, obs features, emb(t), emb(d)]; blocks whose width does not change add a residual.
 * xFlat [B, H·A], t [B], stepSize d [B] (ignored unless `shortcut`), features [B, F].
 */
export function velocityMlp(
  param: ParamLookup,
  options: FlowPolicyOptions,
  xFlat: tf.Tensor2D,
  t: tf.Tensor1D,
  stepSize: tf.Tensor1D,
  features: tf.Tensor2D,
): VelocityOutput {
  return tf.tidy(() => {
    const parts: tf.Tensor2D[] = [xFlat, features, sinusoidalEmbedding(t, options.timeEmbedDim)];
    if (options.shortcut) parts.push(sinusoidalEmbedding(stepSize, options.timeEmbedDim));
    const hiddenSizes = options.velocityHidden;
    let h = silu(dense(param, 'velocity.input', tf.concat(parts, 1)));
    for (let blockIndex = 0; blockIndex + 1 < hiddenSizes.length; blockIndex++) {
      const z = silu(dense(param, `velocity.blocks.${blockIndex}.dense`, h));
      h = hiddenSizes[blockIndex] === hiddenSizes[blockIndex + 1] ? tf.add(h, z) : z;
    }
    const velocity = dense(param, 'velocity.output', h) as tf.Tensor2D;
    return { velocity, hidden: h as tf.Tensor2D };
  });
}
