import * as tf from '@tensorflow/tfjs';
import type { chainLogProb, ChainLogProbOptions } from '../../core/flow/chain-logprob';
import { sampleActions } from '../../core/flow/sampler';
import type { FlowPolicy } from '../../core/policy/flow-policy';
import type { PolicyObs } from '../../core/policy/obs-encoder';
import type { Rng } from '../../core/random';
import type { NamedAdam } from '../../core/rl/adam';

/** Stored chains and their PPO targets, as the update sees one minibatch. */
export interface StoredBatch {
  obs: PolicyObs;
  chains: tf.Tensor4D;
  mask: tf.Tensor2D;
  oldLogProb: tf.Tensor;
  advantages: tf.Tensor1D;
  returns: tf.Tensor1D;
}

/**
 * One PPO-style step on stored chains: `recompute`'s log-prob under the clipped ratio surrogate plus
 * a value MSE, backward through `variables`, and an Adam step at lr 1e-4.
 */
export function ppoStyleStep(
  policy: FlowPolicy,
  batch: StoredBatch,
  options: ChainLogProbOptions,
  variables: ReadonlyMap<string, tf.Variable>,
  optimizer: NamedAdam,
  recompute: typeof chainLogProb,
): () => Promise<void> {
  return async () => {
    const { value, grads } = tf.variableGrads(() => {
      const out = recompute(policy, batch.obs, batch.chains, batch.mask, options);
      const ratio = tf.exp(tf.sub(out.logProb, batch.oldLogProb));
      const surrogate = tf.minimum(tf.mul(ratio, batch.advantages), tf.mul(tf.clipByValue(ratio, 0.8, 1.2), batch.advantages));
      return tf.add(tf.neg(tf.mean(surrogate)), tf.mul(0.5, tf.mean(tf.square(tf.sub(out.values, batch.returns))))) as tf.Scalar;
    }, [...variables.values()]);
    const byName = new Map([...variables].filter(([, variable]) => grads[variable.name]).map(([name, variable]) => [name, grads[variable.name]]));
    optimizer.apply(variables, byName, 1e-4);
    await value.data();
    tf.dispose([value, ...Object.values(grads)]);
  };
}

/**
 * `rows` stored chains sampled from `obs` (state, or a frozen encoder's features), with their
 * summed log-probs as the old ones and random advantages and returns; the caller disposes the tensors.
 */
export async function storedBatch(policy: FlowPolicy, obs: PolicyObs, rows: number, options: ChainLogProbOptions, rng: Rng): Promise<StoredBatch> {
  const stored = await sampleActions(policy, obs, options, rng, options);
  const { steps, horizon, actionDim } = stored;
  return {
    obs,
    chains: tf.tensor4d(stored.chains, [rows, steps + 1, horizon, actionDim]),
    mask: tf.tensor2d(stored.denoiseInds, [rows, steps]),
    oldLogProb: tf.tidy(() => tf.sum(tf.reshape(tf.tensor(stored.logProbs, stored.logProbShape), [rows, -1]), 1)),
    advantages: tf.tensor1d(rng.fillNormal(new Float32Array(rows))),
    returns: tf.tensor1d(rng.fillNormal(new Float32Array(rows))),
  };
}
