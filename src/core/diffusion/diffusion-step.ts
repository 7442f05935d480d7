/**
 * One denoising step of a diffusion policy in tfjs (DESIGN.md §17), the arithmetic of ddpm-schedule.ts's float64
 * references: ε from the net, x̂_0 clamped, the DDPM posterior mean or the DDIM update, and the step's std before any
 * floor. Coefficients are numbers (every row at one step: sampling) or [M, 1, 1] columns (rows at different steps: the
 * PPO loss), so both paths run the same code.
 */
import * as tf from '@tensorflow/tfjs';
import type { FlowPolicy } from '../policy/flow-policy';
import { ddpmSchedule, type DdpmSchedule } from './ddpm-schedule';
import { chainLength, chainTimesteps, diffusionNetTime, type DiffusionSettings } from './diffusion-settings';

/** Per chain index i (noisiest first), every coefficient the step reads, in float64. */
export interface ChainCoefficients {
  /** The timestep t of index i. */
  t: number[];
  /** The number the net reads for t. */
  netTime: number[];
  /** x̂_0 = a·x − b·ε. */
  a: number[];
  b: number[];
  /** DDPM: μ = c1·x̂_0 + c2·x. DDIM: μ = c1·x̂_0 + c3·ε', with ε' recomputed from the clamped x̂_0 as e1·x − e2·x̂_0. */
  c1: number[];
  c2: number[];
  c3: number[];
  e1: number[];
  e2: number[];
  /** The step's std before any floor: √β̃_t (DDPM, its log-variance floored at 1e−20) or DDIM's σ at η = 1 (≥ 1e−10). */
  std: number[];
}

/** DPPO's DDIM σ at η: η·√((1 − ᾱ_prev)/(1 − ᾱ)·(1 − ᾱ/ᾱ_prev)), floored at 1e−10. */
function ddimSigma(alpha: number, alphaPrev: number, eta: number): number {
  return Math.max(1e-10, eta * Math.sqrt(((1 - alphaPrev) / (1 - alpha)) * (1 - alpha / alphaPrev)));
}

/**
 * The chain's coefficients for its settings. DDIM's stochastic steps take η = 1 (DPPO's fixed eta); its deterministic
 * chain takes η = 0, which only changes σ (and the direction coefficient c3), so `deterministic` picks those.
 */
export function chainCoefficients(settings: Pick<DiffusionSettings, 'steps' | 'ddimSteps'>, policyNet: Pick<FlowPolicy['options'], 'velocityNet'>, deterministic = false): ChainCoefficients {
  const schedule: DdpmSchedule = ddpmSchedule(settings.steps);
  const times = chainTimesteps(settings);
  const out: ChainCoefficients = { t: times, netTime: times.map((t) => diffusionNetTime(policyNet, t, settings.steps)), a: [], b: [], c1: [], c2: [], c3: [], e1: [], e2: [], std: [] };
  for (const [index, t] of times.entries()) {
    if (settings.ddimSteps > 0) {
      const alpha = schedule.alphasCumprod[t];
      const alphaPrev = index + 1 < times.length ? schedule.alphasCumprod[times[index + 1]] : 1;
      const sigma = ddimSigma(alpha, alphaPrev, deterministic ? 0 : 1);
      out.a.push(1 / Math.sqrt(alpha));
      out.b.push(Math.sqrt(1 - alpha) / Math.sqrt(alpha));
      out.c1.push(Math.sqrt(alphaPrev));
      out.c2.push(0);
      out.c3.push(Math.sqrt(Math.max(0, 1 - alphaPrev - sigma * sigma)));
      out.e1.push(1 / Math.sqrt(1 - alpha));
      out.e2.push(Math.sqrt(alpha) / Math.sqrt(1 - alpha));
      out.std.push(sigma);
    } else {
      out.a.push(schedule.sqrtRecipAlphasCumprod[t]);
      out.b.push(schedule.sqrtRecipm1AlphasCumprod[t]);
      out.c1.push(schedule.muCoef1[t]);
      out.c2.push(schedule.muCoef2[t]);
      out.c3.push(0);
      out.e1.push(0);
      out.e2.push(0);
      out.std.push(Math.exp(0.5 * schedule.logvarClipped[t]));
    }
  }
  return out;
}

/** A coefficient for every row: one number, or a column [M, 1, 1]. */
export type Coefficient = number | tf.Tensor;

/** The coefficients of one step (numbers), or of each row's step (columns gathered by chain index). */
export interface StepCoefficients {
  netTime: tf.Tensor1D;
  a: Coefficient;
  b: Coefficient;
  c1: Coefficient;
  c2: Coefficient;
  c3: Coefficient;
  e1: Coefficient;
  e2: Coefficient;
  std: Coefficient;
}

/** Step index i's coefficients as numbers, with the net time filled for `batch` rows. */
export function stepAt(coefficients: ChainCoefficients, index: number, batch: number): StepCoefficients {
  return {
    netTime: tf.fill([batch], coefficients.netTime[index]) as tf.Tensor1D,
    a: coefficients.a[index], b: coefficients.b[index], c1: coefficients.c1[index], c2: coefficients.c2[index],
    c3: coefficients.c3[index], e1: coefficients.e1[index], e2: coefficients.e2[index], std: coefficients.std[index],
  };
}

/** Each row's step coefficients: chain indices [M] (int32) gather [M, 1, 1] columns. Call inside tf.tidy. */
export function stepsAt(coefficients: ChainCoefficients, indices: tf.Tensor1D): StepCoefficients {
  const column = (values: number[]) => tf.reshape(tf.gather(tf.tensor1d(values), indices), [-1, 1, 1]);
  return {
    netTime: tf.gather(tf.tensor1d(coefficients.netTime), indices) as tf.Tensor1D,
    a: column(coefficients.a), b: column(coefficients.b), c1: column(coefficients.c1), c2: column(coefficients.c2),
    c3: column(coefficients.c3), e1: column(coefficients.e1), e2: column(coefficients.e2), std: column(coefficients.std),
  };
}

/** ε [B, H, A] of `net` at x [B, H, A]. */
export function predictEpsilon(net: FlowPolicy, x: tf.Tensor, netTime: tf.Tensor1D, features: tf.Tensor2D): tf.Tensor {
  const { horizon, actionDim } = net.options;
  const { velocity } = net.velocity(x, netTime, tf.zerosLike(netTime), features);
  return tf.reshape(velocity, [x.shape[0], horizon, actionDim]);
}

/**
 * The step's mean μ [B, H, A] from x_t and ε: x̂_0 = a·x − b·ε clamped to ±`denoisedClip` (0 = off); DDPM's
 * μ = c1·x̂_0 + c2·x, DDIM's μ = c1·x̂_0 + c3·ε' with ε' = e1·x − e2·x̂_0 (= ε when nothing was clamped).
 */
export function stepMeanFromEpsilon(step: StepCoefficients, x: tf.Tensor, epsilon: tf.Tensor, denoisedClip: number, ddim: boolean): tf.Tensor {
  return tf.tidy(() => {
    let x0 = tf.sub(tf.mul(x, step.a), tf.mul(epsilon, step.b));
    if (denoisedClip > 0) x0 = tf.clipByValue(x0, -denoisedClip, denoisedClip);
    if (!ddim) return tf.add(tf.mul(x0, step.c1), tf.mul(x, step.c2));
    const recomputed = denoisedClip > 0 ? tf.sub(tf.mul(x, step.e1), tf.mul(x0, step.e2)) : epsilon;
    return tf.add(tf.mul(x0, step.c1), tf.mul(recomputed, step.c3));
  });
}

/** The chain length and which indices are fine-tuned: i ≥ L − K'. */
export function fineTunedFrom(settings: DiffusionSettings): number {
  return chainLength(settings) - settings.ftSteps;
}
