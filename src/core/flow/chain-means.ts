import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import { runDenoiseChain } from './denoise-chain';
import { validateSamplerOptions, type SamplerOptions } from './sampling-options';

/** Per-step Gaussian of stored chains: x_{k+1} ~ N(μ_k, std_k²) on stochastic steps. */
export interface ChainStepMeans {
  /** [B, K, H, A]: μ_k for every step (ODE steps: μ_k = x_{k+1}). */
  means: Float32Array;
  /** [B, K, H, A]: the std applied at step k, 0 on ODE steps. */
  stds: Float32Array;
}

/**
 * Recomputes the step means μ_k = w0·x0̂ + w1·x1̂ of stored chains (DESIGN.md §3 "Step"),
 * through the same `runDenoiseChain` as sampling and log-prob recompute, so the band
 * μ ± std drawn for a chain is the density its log-prob uses.
 * chains [B, K+1, H, A], denoiseInds [B, K] (0/1), both row-major.
 */
export async function chainStepMeans(
  policy: FlowPolicy,
  obs: PolicyObs,
  chains: Float32Array,
  denoiseInds: Float32Array,
  options: SamplerOptions,
): Promise<ChainStepMeans> {
  validateSamplerOptions(options);
  const { horizon, actionDim } = policy.options;
  const batch = policy.batchSize(obs);
  const steps = options.steps;
  const elementSize = horizon * actionDim;
  if (chains.length !== batch * (steps + 1) * elementSize) {
    throw new ShapeError('chains', `chains has ${chains.length} values, expected B·(K+1)·H·A = ${batch}·${steps + 1}·${horizon}·${actionDim}`);
  }
  if (denoiseInds.length !== batch * steps) {
    throw new ShapeError('denoiseInds', `denoiseInds has ${denoiseInds.length} values, expected B·K = ${batch}·${steps}`);
  }
  const [means, stds] = tf.tidy(() => {
    const stored = tf.tensor4d(chains, [batch, steps + 1, horizon, actionDim]);
    const element = (stepIndex: number): tf.Tensor =>
      tf.reshape(tf.slice(stored, [0, stepIndex, 0, 0], [batch, 1, horizon, actionDim]), [batch, horizon, actionDim]);
    const stepMeans: tf.Tensor[] = [];
    const mask = tf.tensor2d(denoiseInds, [batch, steps]);
    const pass = runDenoiseChain(policy, obs, element(0), mask, options, (stepIndex, mean) => {
      stepMeans.push(mean);
      return element(stepIndex + 1);
    });
    return [tf.stack(stepMeans, 1), tf.stack(pass.stds, 1)];
  });
  try {
    return { means: (await means.data()) as Float32Array, stds: (await stds.data()) as Float32Array };
  } finally {
    tf.dispose([means, stds]);
  }
}
