import * as tf from '@tensorflow/tfjs';
import { dense, type ParamLookup } from './layers';

/** xᵀ over the last two axes of [G, R, C] → [G, C, R]. */
function swapLast(x: tf.Tensor3D): tf.Tensor3D {
  return tf.transpose(x, [0, 2, 1]);
}

/**
 * Scaled dot-product attention per group: q [G, Tq, dh], k and v [G, Tk, dh] → [G, Tq, dh], with
 * S = q·kᵀ/√dh, P = softmax(S), O = P·v. The gradient is written out with plain matmuls (the
 * built-in one uses transposed matmuls, which the wasm backend runs many times slower):
 * dv = Pᵀ·dO, dP = dO·vᵀ, dS = P ⊙ (dP − Σ_j dP⊙P), dq = dS·k/√dh, dk = dSᵀ·q/√dh.
 */
export const scaledDotProductAttention = tf.customGrad(((q: tf.Tensor3D, k: tf.Tensor3D, v: tf.Tensor3D, save: (tensors: tf.Tensor[]) => void) => {
  const scale = 1 / Math.sqrt(q.shape[2]);
  const probs = tf.softmax(tf.mul(tf.matMul(q, swapLast(k)), scale)) as tf.Tensor3D;
  save([q, k, v, probs]);
  return {
    value: tf.matMul(probs, v),
    gradFunc: (dOut: tf.Tensor3D, saved: tf.Tensor[]) => {
      const [savedQ, savedK, savedV, savedP] = saved as tf.Tensor3D[];
      const dProbs = tf.matMul(dOut, swapLast(savedV));
      const dScores = tf.mul(tf.mul(savedP, tf.sub(dProbs, tf.sum(tf.mul(dProbs, savedP), -1, true))), scale) as tf.Tensor3D;
      return [tf.matMul(dScores, savedK), tf.matMul(swapLast(dScores), savedQ), tf.matMul(swapLast(savedP), dOut)];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (q: tf.Tensor3D, k: tf.Tensor3D, v: tf.Tensor3D) => tf.Tensor3D;

/** [B, T, heads·dh] → [B·heads, T, dh]. */
function splitHeads(x: tf.Tensor, heads: number): tf.Tensor3D {
  const [batch, tokens, width] = x.shape;
  const perHead = width / heads;
  return tf.reshape(tf.transpose(tf.reshape(x, [batch, tokens, heads, perHead]), [0, 2, 1, 3]), [batch * heads, tokens, perHead]);
}

/** [B·heads, T, dh] → [B, T, heads·dh]. */
function mergeHeads(x: tf.Tensor3D, heads: number): tf.Tensor3D {
  const [groups, tokens, perHead] = x.shape;
  const batch = groups / heads;
  return tf.reshape(tf.transpose(tf.reshape(x, [batch, heads, tokens, perHead]), [0, 2, 1, 3]), [batch, tokens, heads * perHead]);
}

/** Multi-head self-attention over x [B, T, D] with `${prefix}.qkv` [D, 3D] and `${prefix}.out` [D, D]. */
export function selfAttention(param: ParamLookup, prefix: string, x: tf.Tensor, heads: number): tf.Tensor3D {
  const width = x.shape[2] as number;
  const [q, k, v] = tf.split(dense(param, `${prefix}.qkv`, x), [width, width, width], 2);
  const attended = scaledDotProductAttention(splitHeads(q, heads), splitHeads(k, heads), splitHeads(v, heads));
  return dense(param, `${prefix}.out`, mergeHeads(attended, heads)) as tf.Tensor3D;
}

/**
 * Multi-head attention of q [B, Tq, D] to exactly two context tokens k, v [B, 2, D], without
 * splitting heads: a softmax over two scores is a sigmoid of their difference, so per head
 * p₁ = σ((q·k₁ − q·k₀)/√dh) = σ(q·(k₁ − k₀)/√dh) and O = v₀ + p₁(v₁ − v₀). The head sums are
 * reductions over [B, Tq, heads, dh], with no transposes and no batched matmuls, which the wasm
 * backend runs through a slow loop at these sizes. Equal to scaledDotProductAttention per head.
 */
export function twoTokenAttention(q: tf.Tensor, k: tf.Tensor, v: tf.Tensor, heads: number): tf.Tensor3D {
  const [batch, tokens, width] = q.shape;
  const perHead = width / heads;
  const [k0, k1] = tf.split(k, 2, 1);
  const [v0, v1] = tf.split(v, 2, 1);
  const byHead = (x: tf.Tensor, rows: number) => tf.reshape(x, [batch, rows, heads, perHead]);
  const keyDifference = byHead(tf.mul(tf.sub(k1, k0), 1 / Math.sqrt(perHead)), 1);
  const secondWeight = tf.sigmoid(tf.sum(tf.mul(byHead(q, tokens), keyDifference), -1, true));
  const attended = tf.add(byHead(v0, 1), tf.mul(secondWeight, byHead(tf.sub(v1, v0), 1)));
  return tf.reshape(attended, [batch, tokens, width]) as tf.Tensor3D;
}

/**
 * Multi-head cross-attention from x [B, Tq, D] to context [B, Tk, D] with `${prefix}.q` [D, D],
 * `${prefix}.kv` [D, 2D] and `${prefix}.out` [D, D]. Two context tokens (two history frames) take
 * twoTokenAttention.
 */
export function crossAttention(param: ParamLookup, prefix: string, x: tf.Tensor, context: tf.Tensor, heads: number): tf.Tensor3D {
  const width = x.shape[2] as number;
  const q = dense(param, `${prefix}.q`, x);
  const [k, v] = tf.split(dense(param, `${prefix}.kv`, context), [width, width], 2);
  const attended = context.shape[1] === 2
    ? twoTokenAttention(q, k, v, heads)
    : mergeHeads(scaledDotProductAttention(splitHeads(q, heads), splitHeads(k, heads), splitHeads(v, heads)), heads);
  return dense(param, `${prefix}.out`, attended) as tf.Tensor3D;
}
