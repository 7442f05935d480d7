import * as tf from '@tensorflow/tfjs';
import { downsample1d, upsample1d } from './conv1d';
import { dense, type ParamLookup } from './layers';
import { mish } from './mish';
import type { FlowPolicyOptions } from './options';
import { sinusoidalEmbedding } from './time-embedding';
import { convBlock, residualBlock } from './unet1d-block';
import type { VelocityOutput } from './velocity-mlp';

/** Width of the hidden layer of the t and d embedding MLPs, as a multiple of the embedding (Diffusion Policy's 4). */
export const UNET_EMBED_RATIO = 4;

/** sinusoid(value) → Linear → Mish → Linear, `${prefix}.0` [E, 4E] and `${prefix}.1` [4E, E]. value [B] → [B, E]. */
function embeddingMlp(param: ParamLookup, prefix: string, value: tf.Tensor1D, dim: number): tf.Tensor2D {
  return dense(param, `${prefix}.1`, mish(dense(param, `${prefix}.0`, sinusoidalEmbedding(value, dim)))) as tf.Tensor2D;
}

/**
 * The step's conditioning before the observation: [emb(t) | emb(d)] (emb(d) only with `shortcut`), each a learned
 * MLP of its sinusoid (`velocity.time.*`, `velocity.step.*`). t, d [B] → [B, E] or [B, 2E]. The noise head reads it too.
 */
export function unet1dStepEmbedding(param: ParamLookup, options: FlowPolicyOptions, t: tf.Tensor1D, stepSize: tf.Tensor1D): tf.Tensor2D {
  return tf.tidy(() => {
    const time = embeddingMlp(param, 'velocity.time', t, options.timeEmbedDim);
    if (!options.shortcut) return time;
    return tf.concat([time, embeddingMlp(param, 'velocity.step', stepSize, options.timeEmbedDim)], 1) as tf.Tensor2D;
  });
}

/**
 * Diffusion Policy's conditional temporal UNet as a velocity net (DESIGN.md §19, `unet1d`), over the H action
 * positions with the A action values as channels. x [B, H, A], t and d [B], features [B, F].
 * - cond = [emb(t) | emb(d) | features]; every residual block reads Mish(cond) through its FiLM layer.
 * - Down path, level i of width unetDims[i]: two residual blocks, their output kept as a skip, then a strided
 *   conv halving the positions (not after the last level). A mid path of two residual blocks at the last width.
 * - Up path, from the last level back to the second: concatenate the skip of that level on the channels, two
 *   residual blocks to the next-finer width, then a transposed conv doubling the positions. As in Diffusion
 *   Policy, the first level's skip is not read (its resolution is reached only after the last up-sampling).
 * - A final conv block at unetDims[0] and a 1×1 conv (`velocity.output`, a dense) to A channels.
 * `hidden` is the final conv block's output averaged over the positions [B, unetDims[0]] (`value_on: expert`).
 * H is a multiple of the total down-sampling (checked when the options are resolved).
 */
export function velocityUnet1d(
  param: ParamLookup,
  options: FlowPolicyOptions,
  x: tf.Tensor,
  t: tf.Tensor1D,
  stepSize: tf.Tensor1D,
  features: tf.Tensor2D,
): VelocityOutput {
  return tf.tidy(() => {
    const batch = x.shape[0];
    const { horizon, actionDim, unetDims: dims, unetGroups: groups } = options;
    const activatedCond = mish(tf.concat([unet1dStepEmbedding(param, options, t, stepSize), features], 1)) as tf.Tensor2D;
    const residual = (prefix: string, input: tf.Tensor3D, width: number) => residualBlock(param, prefix, input, activatedCond, groups, width);
    let h = tf.reshape(x, [batch, horizon, actionDim]) as tf.Tensor3D;
    const skips: tf.Tensor3D[] = [];
    dims.forEach((width, level) => {
      h = residual(`velocity.down.${level}.res1`, residual(`velocity.down.${level}.res0`, h, width), width);
      skips.push(h);
      if (level + 1 < dims.length) h = downsample1d(param, `velocity.down.${level}.downsample`, h);
    });
    const midWidth = dims[dims.length - 1];
    h = residual('velocity.mid.res1', residual('velocity.mid.res0', h, midWidth), midWidth);
    for (let upIndex = 0; upIndex + 1 < dims.length; upIndex++) {
      const width = dims[dims.length - 2 - upIndex];
      h = tf.concat([h, skips[dims.length - 1 - upIndex]], 2) as tf.Tensor3D;
      h = residual(`velocity.up.${upIndex}.res1`, residual(`velocity.up.${upIndex}.res0`, h, width), width);
      h = upsample1d(param, `velocity.up.${upIndex}.upsample`, h);
    }
    const last = convBlock(param, 'velocity.final', h, groups);
    const out = dense(param, 'velocity.output', last);
    return {
      velocity: tf.reshape(out, [batch, horizon * actionDim]) as tf.Tensor2D,
      hidden: tf.mean(last, 1) as tf.Tensor2D,
    };
  });
}
