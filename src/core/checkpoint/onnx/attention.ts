import type { GraphBuilder } from './graph-builder';
import type { GraphParam } from './graph-params';
import { dense } from './layers';

/** [B, T, heads·dh] → [B, heads, T, dh] (Reshape, Transpose); `keysLast` gives [B, heads, dh, T] for q·kᵀ. */
function splitHeads(g: GraphBuilder, x: string, heads: number, perHead: number, keysLast = false): string {
  const perHeadTokens = g.op('Reshape', [x, g.int64s([0, 0, heads, perHead])]);
  return g.op('Transpose', [perHeadTokens], { perm: { ints: keysLast ? [0, 2, 3, 1] : [0, 2, 1, 3] } }, 'heads');
}

/**
 * Scaled dot-product attention per head (policy/attention.ts), q [B, T_q, D], k and v [B, T_k, D]:
 * softmax(q·kᵀ·(1/√dh))·v, heads merged back to [B, T_q, D]. MatMul, Mul, Softmax, Transpose, Reshape.
 */
function attend(g: GraphBuilder, q: string, k: string, v: string, width: number, heads: number): string {
  const perHead = width / heads;
  const scores = g.op('MatMul', [splitHeads(g, q, heads, perHead), splitHeads(g, k, heads, perHead, true)], {}, 'scores');
  const scaled = g.op('Mul', [scores, g.floatScalar(1 / Math.sqrt(perHead))], {}, 'scaled_scores');
  const probs = g.op('Softmax', [scaled], { axis: { int: -1 } }, 'attention');
  const attended = g.op('MatMul', [probs, splitHeads(g, v, heads, perHead)], {}, 'attended');
  const merged = g.op('Transpose', [attended], { perm: { ints: [0, 2, 1, 3] } });
  return g.op('Reshape', [merged, g.int64s([0, 0, width])], {}, 'merged_heads');
}

/** Multi-head self-attention over x [B, T, D] with `${prefix}.qkv` (Split into q, k, v) and `${prefix}.out`. */
export function selfAttentionNodes(g: GraphBuilder, param: GraphParam, prefix: string, x: string, width: number, heads: number): string {
  const [q, k, v] = g.opOutputs('Split', [dense(g, param, `${prefix}.qkv`, x), g.int64s([width, width, width])], 3, { axis: { int: 2 } }, 'qkv');
  return dense(g, param, `${prefix}.out`, attend(g, q, k, v, width, heads));
}

/** Multi-head cross-attention from x [B, T_q, D] to context [B, T_k, D] with `${prefix}.q`, `.kv` and `.out`. */
export function crossAttentionNodes(g: GraphBuilder, param: GraphParam, prefix: string, x: string, context: string, width: number, heads: number): string {
  const q = dense(g, param, `${prefix}.q`, x);
  const [k, v] = g.opOutputs('Split', [dense(g, param, `${prefix}.kv`, context), g.int64s([width, width])], 2, { axis: { int: 2 } }, 'kv');
  return dense(g, param, `${prefix}.out`, attend(g, q, k, v, width, heads));
}
