import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import { runDenoiseChain } from './denoise-chain';
import { reduceLogProb, validateLogProbSlice, type LogProbSlice } from './logprob-reduce';
import { validateSamplerOptions, type SamplerOptions } from './sampling-options';

/** The sampling options of the stored chains plus the PPO slice/reduction. */
export type ChainLogProbOptions = SamplerOptions & LogProbSlice;

/** Differentiable outputs of a recompute; disposed by the caller (or its tidy). */
export type ChainLogProbResult = {
  /** Reduced log-prob: [B, Ta, Ae] (token), [B, Ta] (action) or [B] (chunk). */
  logProb: tf.Tensor;
  /** [B]: mean of 0.5·log(2πe·σ²) over the stochastic elements in [Ta, Ae]; 0 for all-ODE chains. */
  entropy: tf.Tensor1D;
  /** [B] */
  values: tf.Tensor1D;
};

/**
 * Recomputes log-probs of stored chains with the current weights, through the same
 * `runDenoiseChain` and time grid as sampling (DESIGN.md §3 "Log-prob"), so unchanged weights
 * reproduce the stored values. Synchronous: usable inside tf.variableGrads.
 * chains [B, K+1, H, A], denoiseInds [B, K] (0/1).
 */
export function chainLogProb(
  policy: FlowPolicy,
  obs: PolicyObs,
  chains: tf.Tensor,
  denoiseInds: tf.Tensor,
  options: ChainLogProbOptions,
): ChainLogProbResult {
  validateSamplerOptions(options);
  const { horizon, actionDim } = policy.options;
  validateLogProbSlice(options, horizon, actionDim);
  const batch = policy.batchSize(obs);
  const steps = options.steps;
  const expected = [batch, steps + 1, horizon, actionDim];
  if (chains.rank !== 4 || chains.shape.some((size, axis) => size !== expected[axis])) {
    throw new ShapeError('chains', `chains must be [B, K+1, H, A] = [${expected.join(', ')}], got [${chains.shape.join(', ')}]`);
  }
  if (denoiseInds.rank !== 2 || denoiseInds.shape[0] !== batch || denoiseInds.shape[1] !== steps) {
    throw new ShapeError('denoiseInds', `denoiseInds must be [B, K] = [${batch}, ${steps}], got [${denoiseInds.shape.join(', ')}]`);
  }
  return tf.tidy(() => {
    const element = (stepIndex: number): tf.Tensor =>
      tf.reshape(tf.slice(chains, [0, stepIndex, 0, 0], [batch, 1, horizon, actionDim]), [batch, horizon, actionDim]);
    const pass = runDenoiseChain(policy, obs, element(0), denoiseInds as tf.Tensor2D, options, (stepIndex) => element(stepIndex + 1));
    const logProb = reduceLogProb(pass.logProb, options);
    const slicedEntropy = tf.slice(pass.entropySum, [0, 0, 0], [batch, options.nActionSteps, options.envActionDim]);
    const elementsPerStep = options.nActionSteps * options.envActionDim;
    const entropy = tf.div(
      tf.sum(slicedEntropy, [1, 2]),
      tf.mul(tf.maximum(pass.stochasticCount, 1), elementsPerStep),
    ) as tf.Tensor1D;
    return { logProb, entropy, values: pass.values };
  });
}
