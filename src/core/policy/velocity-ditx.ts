import * as tf from '@tensorflow/tfjs';
import { modulate } from './adaln';
import { crossAttention, selfAttention } from './attention';
import { dense, silu, type ParamLookup } from './layers';
import { obsTokenCount, obsTokenDim, type FlowPolicyOptions } from './options';
import { sinusoidalEmbedding } from './time-embedding';
import type { VelocityOutput } from './velocity-mlp';

/** Modulation vectors per block: shift, scale and gate for self-attention, cross-attention and the MLP. */
export const DITX_BLOCK_MODULATIONS = 9;
/** Hidden width of each block's MLP, as a multiple of the token width. */
export const DITX_MLP_RATIO = 4;

/** [B, k·D] → k tensors [B, D]. */
function chunks(x: tf.Tensor, count: number): tf.Tensor2D[] {
  return tf.split(x, count, 1) as tf.Tensor2D[];
}

/** [B, D] → [B, 1, D] (broadcast over tokens). */
function perToken(x: tf.Tensor2D): tf.Tensor {
  return tf.expandDims(x, 1);
}

/**
 * One DiT-X block (DESIGN.md §3 "Velocity nets"), h [B, H, D], obsTokens [B, T, D], c [B, D]:
 *   m = Linear(SiLU(c)) → shift/scale/gate ×3 (zero-initialised, so a fresh block is the identity)
 *   h += gate₁ ⊙ SelfAttn(LN(h)(1 + scale₁) + shift₁)
 *   h += gate₂ ⊙ CrossAttn(LN(h)(1 + scale₂) + shift₂ → obsTokens)
 *   h += gate₃ ⊙ MLP(LN(h)(1 + scale₃) + shift₃)
 */
export function ditxBlock(param: ParamLookup, prefix: string, h: tf.Tensor, obsTokens: tf.Tensor, c: tf.Tensor2D, heads: number): tf.Tensor {
  const [shift1, scale1, gate1, shift2, scale2, gate2, shift3, scale3, gate3] =
    chunks(dense(param, `${prefix}.modulation`, silu(c)), DITX_BLOCK_MODULATIONS);
  let out = tf.add(h, tf.mul(perToken(gate1), selfAttention(param, `${prefix}.self_attn`, modulate(h, shift1, scale1), heads)));
  out = tf.add(out, tf.mul(perToken(gate2), crossAttention(param, `${prefix}.cross_attn`, modulate(out, shift2, scale2), obsTokens, heads)));
  const mlp = dense(param, `${prefix}.mlp.output`, silu(dense(param, `${prefix}.mlp.layers.0`, modulate(out, shift3, scale3))));
  return tf.add(out, tf.mul(perToken(gate3), mlp));
}

/**
 * DiT-X velocity net (DESIGN.md §3 "Velocity nets", `ditx`; ManiFlow, references 000–002).
 * Each of the H action positions is a token (Linear(A → D) plus a learned position embedding);
 * the observation features are T tokens (one per history frame, Linear plus a position
 * embedding); c = MLP([emb(t), emb(d)]) conditions every block through AdaLN-Zero; a final AdaLN
 * layer and Linear(D → A) give the velocity. x [B, H, A], t and d [B], features [B, T·F].
 * `hidden` is the final tokens averaged over the chunk [B, D] (the `value_on: expert` input).
 */
export function velocityDitx(
  param: ParamLookup,
  options: FlowPolicyOptions,
  x: tf.Tensor,
  t: tf.Tensor1D,
  stepSize: tf.Tensor1D,
  features: tf.Tensor2D,
): VelocityOutput {
  return tf.tidy(() => {
    const batch = x.shape[0];
    const { horizon, actionDim, ditxDim, ditxDepth, ditxHeads } = options;
    const embeds: tf.Tensor2D[] = [sinusoidalEmbedding(t, options.timeEmbedDim)];
    if (options.shortcut) embeds.push(sinusoidalEmbedding(stepSize, options.timeEmbedDim));
    const c = dense(param, 'velocity.cond.layers.1', silu(dense(param, 'velocity.cond.layers.0', tf.concat(embeds, 1)))) as tf.Tensor2D;
    const obsTokens = tf.add(
      dense(param, 'velocity.obs_input', tf.reshape(features, [batch, obsTokenCount(options), obsTokenDim(options)])),
      param('velocity.obs_pos'),
    );
    let h: tf.Tensor = tf.add(dense(param, 'velocity.input', tf.reshape(x, [batch, horizon, actionDim])), param('velocity.pos'));
    for (let blockIndex = 0; blockIndex < ditxDepth; blockIndex++) {
      h = ditxBlock(param, `velocity.blocks.${blockIndex}`, h, obsTokens, c, ditxHeads);
    }
    const [shift, scale] = chunks(dense(param, 'velocity.final.modulation', silu(c)), 2);
    const out = dense(param, 'velocity.output', modulate(h, shift, scale));
    return {
      velocity: tf.reshape(out, [batch, horizon * actionDim]) as tf.Tensor2D,
      hidden: tf.reshape(tf.matMul(tf.fill([batch, 1, horizon], 1 / horizon), h), [batch, ditxDim]) as tf.Tensor2D,
    };
  });
}
