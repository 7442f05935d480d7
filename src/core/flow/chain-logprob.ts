import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import { clampMean, odeW1, runDenoiseChain, stepMean } from './denoise-chain';
import { gaussianEntropy, gaussianLogProb } from './gaussian';
import { reduceLogProb, scoredPositions, validateLogProbSlice, type LogProbSlice } from './logprob-reduce';
import { validateSamplerOptions, type SamplerOptions } from './sampling-options';
import { stepCoefficients, timeGrid } from './time-grid';

/** The sampling options of the stored chains plus the PPO slice/reduction. */
export type ChainLogProbOptions = SamplerOptions & LogProbSlice;

/** Differentiable outputs of a recompute; disposed by the caller (or its tidy). */
export type ChainLogProbResult = {
  /** Reduced log-prob: [B, Ta, Ae] (token), [B, Ta] (action) or [B] (chunk, mean). */
  logProb: tf.Tensor;
  /** [B]: mean of 0.5·log(2πe·σ²) over the stochastic elements in [Ta, Ae] ([H, Ae] for mean); 0 for all-ODE chains. */
  entropy: tf.Tensor1D;
  /** [B] */
  values: tf.Tensor1D;
};

/**
 * True when one velocity evaluation per chain gives the whole recompute (DESIGN.md §3 "Cost"):
 * hybrid chains carry a density on one step only, and a value head on the observation features
 * needs nothing from the other steps. Joint chains and `value_on: expert` need all K.
 */
export function recomputesOneStep(policy: FlowPolicy, options: SamplerOptions): boolean {
  return options.mode === 'hybrid' && options.method !== 'ode' && policy.options.valueOn === 'obs';
}

function validateChains(policy: FlowPolicy, obs: PolicyObs, chains: tf.Tensor, denoiseInds: tf.Tensor, options: ChainLogProbOptions): number {
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
  return batch;
}

/** Mean of 0.5·log(2πe·σ²) over the scored [Ta, Ae] elements ([H, Ae] for `mean`) of the stochastic steps: [B]. */
function meanEntropy(entropySum: tf.Tensor, stochasticCount: tf.Tensor, options: ChainLogProbOptions): tf.Tensor1D {
  const [batch, horizon] = entropySum.shape;
  const positions = scoredPositions(options, horizon);
  const sliced = tf.slice(entropySum, [0, 0, 0], [batch, positions, options.envActionDim]);
  const elementsPerStep = positions * options.envActionDim;
  return tf.div(tf.sum(sliced, [1, 2]), tf.mul(tf.maximum(stochasticCount, 1), elementsPerStep)) as tf.Tensor1D;
}

/**
 * Recomputes log-probs of stored chains with the current weights (DESIGN.md §3 "Log-prob"),
 * so unchanged weights reproduce the stored values. Hybrid chains with `value_on: obs` take one
 * velocity evaluation per chain, at its stochastic step's stored x_k and t_k; everything else
 * runs the K steps of `runDenoiseChain`. Synchronous: usable inside tf.variableGrads.
 * chains [B, K+1, H, A], denoiseInds [B, K] (0/1).
 */
export function chainLogProb(
  policy: FlowPolicy,
  obs: PolicyObs,
  chains: tf.Tensor,
  denoiseInds: tf.Tensor,
  options: ChainLogProbOptions,
): ChainLogProbResult {
  if (!recomputesOneStep(policy, options)) return chainLogProbAllSteps(policy, obs, chains, denoiseInds, options);
  const batch = validateChains(policy, obs, chains, denoiseInds, options);
  const { horizon, actionDim } = policy.options;
  const steps = options.steps;
  return tf.tidy(() => {
    const grid = timeGrid(steps, policy.options.timeGrid);
    const coefficients = stepCoefficients(options.method, steps, options.level);
    const mask = denoiseInds as tf.Tensor2D;
    // One-hot mask · per-step column picks each chain's own constant exactly (all other terms are 0).
    const pick = (perStep: number[]): tf.Tensor => tf.reshape(tf.matMul(mask, tf.tensor2d(perStep, [steps, 1])), [batch, 1, 1]);
    const times = grid.times.slice(0, steps);
    const t = pick(times);
    const oneMinusT = pick(times.map((time) => 1 - time));
    const w0 = pick(coefficients.w0);
    // The chain forms a stochastic step's w1 as f32(w1 − ode) + f32(ode) in float32; so does this.
    const w1 = pick(coefficients.w1.map((weight, stepIndex) => {
      const ode = odeW1(times[stepIndex], grid.delta);
      return Math.fround(Math.fround(weight - ode) + Math.fround(ode));
    }));
    const stepMask = tf.reshape(mask, [batch, steps, 1, 1]);
    const atStep = (first: number): tf.Tensor =>
      tf.sum(tf.mul(tf.slice(chains, [0, first, 0, 0], [batch, steps, horizon, actionDim]), stepMask), 1);
    const x = atStep(0);
    const xNext = atStep(1);
    const features = policy.encode(obs);
    const timeColumn = tf.reshape(pick(grid.netTimes), [batch]) as tf.Tensor1D;
    const stepSize = tf.fill([batch], grid.delta) as tf.Tensor1D;
    const { velocity } = policy.velocity(x, timeColumn, stepSize, features);
    const mean = clampMean(stepMean(x, tf.reshape(velocity, [batch, horizon, actionDim]), t, w0, w1, oneMinusT), options.denoisedClamp);
    const std = options.method === 'noise'
      ? policy.noiseStd(features, timeColumn, options.bounds!, stepSize)
      : tf.broadcastTo(pick(coefficients.std), [batch, horizon, actionDim]);
    const logProb = reduceLogProb(gaussianLogProb(xNext, mean, std), options);
    const entropy = meanEntropy(gaussianEntropy(std), tf.ones([batch]), options);
    return { logProb, entropy, values: policy.value(features) };
  });
}

/** The recompute through all K steps of `runDenoiseChain`, whatever the mode. */
export function chainLogProbAllSteps(
  policy: FlowPolicy,
  obs: PolicyObs,
  chains: tf.Tensor,
  denoiseInds: tf.Tensor,
  options: ChainLogProbOptions,
): ChainLogProbResult {
  const batch = validateChains(policy, obs, chains, denoiseInds, options);
  const { horizon, actionDim } = policy.options;
  return tf.tidy(() => {
    const element = (stepIndex: number): tf.Tensor =>
      tf.reshape(tf.slice(chains, [0, stepIndex, 0, 0], [batch, 1, horizon, actionDim]), [batch, horizon, actionDim]);
    const pass = runDenoiseChain(policy, obs, element(0), denoiseInds as tf.Tensor2D, options, (stepIndex) => element(stepIndex + 1));
    const logProb = reduceLogProb(pass.logProb, options);
    return { logProb, entropy: meanEntropy(pass.entropySum, pass.stochasticCount, options), values: pass.values };
  });
}
