import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import type { Rng } from '../random';
import { runDenoiseChain } from './denoise-chain';
import { reduceLogProb, validateLogProbSlice, type LogProbSlice } from './logprob-reduce';
import { buildDenoiseMask, validateSamplerOptions, type SamplerOptions } from './sampling-options';

/** One sampled batch of chains; all arrays are row-major float32. */
export interface SampleResult {
  batch: number;
  steps: number;
  horizon: number;
  actionDim: number;
  /** [B, H, A]: x_K, the action at t = 0 (normalized units). */
  actions: Float32Array;
  /** [B, K + 1, H, A]: x_0 is the initial noise at t = 1, x_K the action. */
  chains: Float32Array;
  /** [B, K]: 0/1 mask, 1 where step k of chain b was stochastic (see buildDenoiseMask). */
  denoiseInds: Float32Array;
  /**
   * Log-prob of the chain (joint: averaged over its K + 1 terms); 0 for all-ODE chains. Per element
   * [B, H, A], or reduced by the slice given to the sampler: [B, Ta, Ae] token, [B, Ta] action, [B] chunk and mean.
   */
  logProbs: Float32Array;
  /** Shape of `logProbs`. */
  logProbShape: number[];
  /** [B] */
  values: Float32Array;
  /** Std applied at each step, 0 on ODE steps: [B, K] for ode/sde/cps, [B, K, H, A] for the learned-noise method. */
  stds: Float32Array;
  /** Shape of `stds`. */
  stdShape: number[];
}

/**
 * Samples action chunks (DESIGN.md §3). x_0 and every ε come from `rng` (never tf.random),
 * so a seed reproduces the same chains on every backend. Stochastic step: x_{i+1} = μ_i + std_i·ε.
 * With `slice` the log-prob is sliced and reduced on the device (`reduceLogProb`) and only the
 * reduced values are downloaded; without it `logProbs` is per element.
 */
export async function sampleActions(policy: FlowPolicy, obs: PolicyObs, options: SamplerOptions, rng: Rng, slice?: LogProbSlice): Promise<SampleResult> {
  validateSamplerOptions(options);
  const batch = policy.batchSize(obs);
  const { horizon, actionDim } = policy.options;
  if (slice) validateLogProbSlice(slice, horizon, actionDim);
  const steps = options.steps;
  const elementSize = batch * horizon * actionDim;
  const x0Data = rng.fillNormal(new Float32Array(elementSize));
  const maskData = buildDenoiseMask(options, batch, rng);
  const anyStochastic = maskData.some((flag) => flag > 0);
  const noiseData = anyStochastic ? rng.fillNormal(new Float32Array(steps * elementSize)) : undefined;
  const learned = options.method === 'noise';

  const [chains, logProbs, values, stds] = tf.tidy(() => {
    const x0 = tf.tensor3d(x0Data, [batch, horizon, actionDim]);
    const mask = tf.tensor2d(maskData, [batch, steps]);
    const pass = runDenoiseChain(policy, obs, x0, mask, options, (stepIndex, mean, std, stepMask) => {
      if (!noiseData) return mean;
      const epsilon = tf.tensor3d(noiseData.subarray(stepIndex * elementSize, (stepIndex + 1) * elementSize), [batch, horizon, actionDim]);
      return tf.add(mean, tf.mul(tf.mul(std, stepMask), epsilon));
    });
    const stdPerStep = learned
      ? tf.stack(pass.stds, 1)
      : tf.stack(pass.stds.map((std) => tf.reshape(tf.slice(std, [0, 0, 0], [batch, 1, 1]), [batch])), 1);
    return [tf.stack(pass.elements, 1), slice ? reduceLogProb(pass.logProb, slice) : pass.logProb, pass.values, stdPerStep];
  });
  try {
    const chainData = (await chains.data()) as Float32Array;
    return {
      batch,
      steps,
      horizon,
      actionDim,
      actions: lastChainElement(chainData, batch, steps, horizon * actionDim),
      chains: chainData,
      denoiseInds: maskData,
      logProbs: (await logProbs.data()) as Float32Array,
      logProbShape: [...logProbs.shape],
      values: (await values.data()) as Float32Array,
      stds: (await stds.data()) as Float32Array,
      stdShape: [...stds.shape],
    };
  } finally {
    tf.dispose([chains, logProbs, values, stds]);
  }
}

/** chains [B, K + 1, E] → x_K [B, E]. */
export function lastChainElement(chains: Float32Array, batch: number, steps: number, elementSize: number): Float32Array {
  if (chains.length !== batch * (steps + 1) * elementSize) {
    throw new ShapeError('chains', `chains has ${chains.length} values, expected B·(K+1)·H·A = ${batch * (steps + 1) * elementSize}`);
  }
  const actions = new Float32Array(batch * elementSize);
  for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
    const start = (chainIndex * (steps + 1) + steps) * elementSize;
    actions.set(chains.subarray(start, start + elementSize), chainIndex * elementSize);
  }
  return actions;
}
