import type { FlowPolicyOptions } from '../../policy/options';
import { DITX_BLOCK_MODULATIONS } from '../../policy/velocity-ditx';
import { crossAttentionNodes, selfAttentionNodes } from './attention';
import type { GraphBuilder } from './graph-builder';
import type { GraphParam } from './graph-params';
import { dense, modulate, silu } from './layers';

/** [B, k·D] → k values [B, D] (Split on axis 1). */
function chunks(g: GraphBuilder, x: string, count: number, width: number): string[] {
  return g.opOutputs('Split', [x, g.int64s(new Array<number>(count).fill(width))], count, { axis: { int: 1 } }, 'modulation');
}

/** [B, D] → [B, 1, D] (broadcast over tokens). */
function perToken(g: GraphBuilder, x: string): string {
  return g.op('Unsqueeze', [x, g.int64s([1])], {}, 'gate');
}

/**
 * The observation tokens DiT-X attends to, which do not change over the denoising steps:
 * Linear(tokens [B, T, tokenDim]) + `velocity.obs_pos` → [B, T, D].
 */
export function ditxObsTokenNodes(g: GraphBuilder, param: GraphParam, obsTokens: string): string {
  return g.op('Add', [dense(g, param, 'velocity.obs_input', obsTokens), param('velocity.obs_pos')], {}, 'ditx_obs_tokens');
}

/** One DiT-X block (policy/velocity-ditx.ts `ditxBlock`): AdaLN-Zero around self-attention, cross-attention and the MLP. */
function ditxBlockNodes(g: GraphBuilder, param: GraphParam, prefix: string, h: string, obsTokens: string, c: string, options: FlowPolicyOptions): string {
  const width = options.ditxDim;
  const [shift1, scale1, gate1, shift2, scale2, gate2, shift3, scale3, gate3] =
    chunks(g, dense(g, param, `${prefix}.modulation`, silu(g, c)), DITX_BLOCK_MODULATIONS, width);
  const selfAttended = selfAttentionNodes(g, param, `${prefix}.self_attn`, modulate(g, h, shift1, scale1), width, options.ditxHeads);
  let out = g.op('Add', [h, g.op('Mul', [perToken(g, gate1), selfAttended])], {}, 'block_state');
  const crossAttended = crossAttentionNodes(g, param, `${prefix}.cross_attn`, modulate(g, out, shift2, scale2), obsTokens, width, options.ditxHeads);
  out = g.op('Add', [out, g.op('Mul', [perToken(g, gate2), crossAttended])], {}, 'block_state');
  const hidden = silu(g, dense(g, param, `${prefix}.mlp.layers.0`, modulate(g, out, shift3, scale3)));
  const mlp = dense(g, param, `${prefix}.mlp.output`, hidden);
  return g.op('Add', [out, g.op('Mul', [perToken(g, gate3), mlp])], {}, 'block_state');
}

/**
 * The DiT-X velocity net (policy/velocity-ditx.ts) for one denoising step: x_t [B, H, A], the
 * step's [emb(t) | emb(d)] as a [1, E] constant (every chain shares t and d, so the conditioning
 * c and every modulation are [1, D] and broadcast over the batch), and the observation tokens
 * from ditxObsTokenNodes → velocity [B, H, A].
 */
export function velocityDitxNodes(g: GraphBuilder, param: GraphParam, options: FlowPolicyOptions, x: string, stepEmbedding: string, obsTokens: string): string {
  const c = dense(g, param, 'velocity.cond.layers.1', silu(g, dense(g, param, 'velocity.cond.layers.0', stepEmbedding)));
  let h = g.op('Add', [dense(g, param, 'velocity.input', x), param('velocity.pos')], {}, 'action_tokens');
  for (let blockIndex = 0; blockIndex < options.ditxDepth; blockIndex++) {
    h = ditxBlockNodes(g, param, `velocity.blocks.${blockIndex}`, h, obsTokens, c, options);
  }
  const [shift, scale] = chunks(g, dense(g, param, 'velocity.final.modulation', silu(g, c)), 2, options.ditxDim);
  return dense(g, param, 'velocity.output', modulate(g, h, shift, scale));
}
