/**
 * Sampling a diffusion policy's chains (DESIGN.md §17), as DPPO's VPGDiffusion.forward does: x_T ~ N(0, I); every step
 * x ← μ + std·clip(z, ±10) with std floored at dppo.min_sampling_std; the last K' steps run the fine-tuned net and the
 * earlier ones the frozen base net; the final x is clipped to ±1. The deterministic chain (evaluation, export) is the
 * mean chain: DDIM at η = 0, or DDPM with no noise. Noise comes from `rng` (never tf.random), so a seed reproduces a chain
 * on every backend.
 */
import * as tf from '@tensorflow/tfjs';
import { gaussianLogProb } from '../flow/gaussian';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import type { Rng } from '../random';
import { chainCoefficients, fineTunedFrom, predictEpsilon, stepAt, stepMeanFromEpsilon } from './diffusion-step';
import { FINAL_ACTION_CLIP, chainLength, type DiffusionSettings } from './diffusion-settings';

export interface DiffusionSample {
  batch: number;
  horizon: number;
  actionDim: number;
  /** [B, H, A]: the final (clipped) chain element, normalized units. */
  actions: Float32Array;
  /** [B, K' + 1, H, A]: the chain from the input of the first fine-tuned step to the action (what PPO stores). */
  chains: Float32Array;
  /** [B, K', H, A]: log N(x_{i+1}; μ_i, max(std_i, min_logprob_std)²) of each fine-tuned step under `policy`. */
  logProbs: Float32Array;
  /** [B]: the critic on the observation. */
  values: Float32Array;
  /** The std applied at each of the L steps (0 on a deterministic chain). */
  stepStds: number[];
  /** [B, L + 1, H, A]: every chain element, x_T first, when asked for (the chain view). */
  fullChain?: Float32Array;
  /** [B, L, H, A]: each step's mean, when the full chain is asked for. */
  means?: Float32Array;
}

export interface DiffusionSampleOptions {
  deterministic: boolean;
  /** Keep every element and mean of the chain (the studio's chain view). */
  fullChain?: boolean;
  /** Initial noise x_T [B, H, A]; drawn from the rng when absent. */
  xT?: Float32Array;
}

/** The std a step applies: 0 on a deterministic chain, else its std floored at the sampling floor. */
export function samplingStd(std: number, settings: DiffusionSettings, deterministic: boolean): number {
  return deterministic ? 0 : Math.max(std, settings.minSamplingStd);
}

/** What one pass over the chain gives, as tensors (inside tf.tidy). */
interface ChainPass {
  /** L + 1 elements [B, H, A], x_T first. */
  elements: tf.Tensor[];
  /** L step means [B, H, A]. */
  means: tf.Tensor[];
  /** K' per-element log-probs [B, H, A] of the fine-tuned steps under the fine-tuned net. */
  logProbs: tf.Tensor[];
}

/**
 * The chain from x_T [B, H, A]: step i runs `tuned` (with `features`) when i ≥ L − K', else `base` (with `baseFeatures`);
 * `noise` [L, B, H, A] drives the stochastic steps (none: the mean chain). Call inside tf.tidy.
 */
export function runDiffusionChain(
  nets: { tuned: FlowPolicy; base: FlowPolicy; features: tf.Tensor2D; baseFeatures: tf.Tensor2D },
  xT: tf.Tensor,
  noise: Float32Array | undefined,
  settings: DiffusionSettings,
  deterministic: boolean,
): ChainPass {
  const [batch, horizon, actionDim] = xT.shape;
  const elementSize = batch * horizon * actionDim;
  const length = chainLength(settings);
  const coefficients = chainCoefficients(settings, nets.tuned.options, deterministic);
  const firstTuned = fineTunedFrom(settings);
  const pass: ChainPass = { elements: [xT], means: [], logProbs: [] };
  let x = xT;
  for (let index = 0; index < length; index++) {
    const tuned = index >= firstTuned;
    const step = stepAt(coefficients, index, batch);
    const epsilon = predictEpsilon(tuned ? nets.tuned : nets.base, x, step.netTime, tuned ? nets.features : nets.baseFeatures);
    const mean = stepMeanFromEpsilon(step, x, epsilon, settings.denoisedClip, settings.ddimSteps > 0);
    const std = samplingStd(coefficients.std[index], settings, deterministic);
    let next = noise && std > 0
      ? tf.add(mean, tf.mul(tf.clipByValue(tf.tensor3d(noise.subarray(index * elementSize, (index + 1) * elementSize), [batch, horizon, actionDim]), -settings.randnClip, settings.randnClip), std))
      : mean;
    if (index === length - 1) next = tf.clipByValue(next, -FINAL_ACTION_CLIP, FINAL_ACTION_CLIP);
    if (tuned) pass.logProbs.push(gaussianLogProb(next, mean, tf.fill(mean.shape, Math.max(coefficients.std[index], settings.minLogprobStd))));
    pass.means.push(mean);
    pass.elements.push(next);
    x = next;
  }
  return pass;
}

/**
 * The base net's own stochastic chains for M observation rows (DPPO's BC term: the teacher's actions along its own
 * chain, reading the same state and camera images as the fine-tuned net), kept from the first fine-tuned step's input:
 * [M, K' + 1, H, A]. x_T and the noise come from `rng`.
 */
export function baseChains(base: FlowPolicy, obs: PolicyObs, settings: DiffusionSettings, rng: Rng): tf.Tensor {
  return tf.tidy(() => {
    const { horizon, actionDim } = base.options;
    const batch = base.batchSize(obs);
    const elementSize = batch * horizon * actionDim;
    const xT = tf.tensor3d(rng.fillNormal(new Float32Array(elementSize)), [batch, horizon, actionDim]);
    const noise = rng.fillNormal(new Float32Array(chainLength(settings) * elementSize));
    const features = base.encode(obs);
    const pass = runDiffusionChain({ tuned: base, base, features, baseFeatures: features }, xT, noise, settings, false);
    return tf.stack(pass.elements.slice(fineTunedFrom(settings)), 1);
  });
}

/** Samples one chain per observation row; `base` runs the steps before the last K' (the policy itself when absent). */
export async function sampleDiffusion(
  policy: FlowPolicy,
  base: FlowPolicy | undefined,
  obs: PolicyObs,
  settings: DiffusionSettings,
  rng: Rng,
  options: DiffusionSampleOptions,
): Promise<DiffusionSample> {
  const batch = policy.batchSize(obs);
  const { horizon, actionDim } = policy.options;
  const elementSize = batch * horizon * actionDim;
  const length = chainLength(settings);
  const coefficients = chainCoefficients(settings, policy.options, options.deterministic);
  const xT = options.xT ?? rng.fillNormal(new Float32Array(elementSize));
  const noise = options.deterministic ? undefined : rng.fillNormal(new Float32Array(length * elementSize));
  const firstTuned = fineTunedFrom(settings);
  const stepStds = coefficients.std.map((std) => samplingStd(std, settings, options.deterministic));

  const [chains, logProbs, values, full, means] = tf.tidy(() => {
    const features = policy.encode(obs);
    const baseNet = base && firstTuned > 0 ? base : policy;
    const baseFeatures = baseNet === policy ? features : baseNet.encode(obs);
    const pass = runDiffusionChain({ tuned: policy, base: baseNet, features, baseFeatures }, tf.tensor3d(xT, [batch, horizon, actionDim]), noise, settings, options.deterministic);
    return [
      tf.stack(pass.elements.slice(firstTuned), 1),
      pass.logProbs.length > 0 ? tf.stack(pass.logProbs, 1) : tf.zeros([batch, 0, horizon, actionDim]),
      policy.value(features),
      options.fullChain ? tf.stack(pass.elements, 1) : tf.zeros([0]),
      options.fullChain ? tf.stack(pass.means, 1) : tf.zeros([0]),
    ];
  });
  try {
    const chainData = (await chains.data()) as Float32Array;
    const tail = chainData.length / batch;
    const actions = new Float32Array(elementSize);
    const perElement = horizon * actionDim;
    for (let row = 0; row < batch; row++) actions.set(chainData.subarray((row + 1) * tail - perElement, (row + 1) * tail), row * perElement);
    return {
      batch, horizon, actionDim, actions, chains: chainData,
      logProbs: (await logProbs.data()) as Float32Array,
      values: (await values.data()) as Float32Array,
      stepStds,
      ...(options.fullChain ? { fullChain: (await full.data()) as Float32Array, means: (await means.data()) as Float32Array } : {}),
    };
  } finally {
    tf.dispose([chains, logProbs, values, full, means]);
  }
}
