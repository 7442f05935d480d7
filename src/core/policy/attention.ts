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
 * Multi-head cross-attention from x [B, Tq, D] to context [B, Tk, D] with `${prefix}.q` [D, D],
 * `${prefix}.kv` [D, 2D] and `${prefix}.out` [D, D].
 */
export function crossAttention(param: ParamLookup, prefix: string, x: tf.Tensor, context: tf.Tensor, heads: number): tf.Tensor3D {
  const width = x.shape[2] as number;
  const q = dense(param, `${prefix}.q`, x);
  const [k, v] = tf.split(dense(param, `${prefix}.kv`, context), [width, width], 2);
  const attended = scaledDotProductAttention(splitHeads(q, heads), splitHeads(k, heads), splitHeads(v, heads));
  return dense(param, `${prefix}.out`, mergeHeads(attended, heads)) as tf.Tensor3D;
}
