import * as tf from '@tensorflow/tfjs';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import { gaussianEntropy, gaussianLogProb, standardNormalLogProb } from './gaussian';
import type { SamplerOptions } from './sampling-options';
import { stepCoefficients, timeGrid } from './time-grid';

/**
 * Chooses x_{i+1} given step i's mean μ_i [B, H, A], std [B, H, A] and mask [B, 1, 1]:
 * the sampler draws μ + mask·std·ε, the log-prob recompute returns the stored chain element.
 */
export type NextChainElement = (stepIndex: number, mean: tf.Tensor, std: tf.Tensor, mask: tf.Tensor) => tf.Tensor;

/** Everything one pass over the K steps yields; all per-element tensors are [B, H, A]. */
export interface ChainPass {
  /** K + 1 tensors [B, H, A]: x_0 … x_K. */
  elements: tf.Tensor[];
  /**
   * Per-element log-prob: Σ_k mask·log N(x_{k+1}; μ_k, std_k); joint: (log N(x_0; 0, I) + that)/(K + 1), the mean over
   * x_0's density and all K steps, a std-0 step (cps's last) counting as a term that contributes 0 (RLinf divides by K + 1 too).
   */
  logProb: tf.Tensor;
  /** Σ_k mask_k·0.5·log(2πe·std_k²) per element. */
  entropySum: tf.Tensor;
  /** [B]: number of stochastic steps per chain. */
  stochasticCount: tf.Tensor1D;
  /** [B] */
  values: tf.Tensor1D;
  /** K tensors: the std applied at each step, 0 where the step was ODE ([B, H, A]). */
  stds: tf.Tensor[];
}

/**
 * DESIGN.md §3 "Step": μ = w0·x0̂ + w1·x1̂ with x0̂ = x − t·v and x1̂ = x + (1 − t)·v.
 * x, v [B, H, A]; t, 1 − t, w0 and w1 numbers or tensors that broadcast ([B, 1, 1]; 1 − t is
 * passed in so that a per-chain t rounds as the number does). Shared so the value-only pass and
 * the one-step recompute follow the chain bit for bit.
 */
export function stepMean(
  x: tf.Tensor,
  v: tf.Tensor,
  t: tf.Tensor | number,
  w0: tf.Tensor | number,
  w1: tf.Tensor | number,
  oneMinusT: tf.Tensor | number = typeof t === 'number' ? 1 - t : tf.sub(1, t),
): tf.Tensor {
  return tf.tidy(() => {
    const x0Hat = tf.sub(x, tf.mul(v, t));
    const x1Hat = tf.add(x, tf.mul(v, oneMinusT));
    return tf.add(tf.mul(x0Hat, w0), tf.mul(x1Hat, w1));
  });
}

/**
 * ReinFlow's clip_intermediate_actions: the step mean μ clamped to [−c, c] (`policy.denoised_clamp`), on every step of
 * every chain, so sampling, the log-prob recompute and the deterministic ODE agree. c = 0 or undefined returns μ.
 * The clamp passes no gradient to a μ outside [−c, c], as torch.clamp does.
 */
export function clampMean(mean: tf.Tensor, clamp: number | undefined): tf.Tensor {
  return clamp ? tf.clipByValue(mean, -clamp, clamp) : mean;
}

/** The ODE weight w1 = t − δ that the chain uses on steps that are not stochastic. */
export function odeW1(t: number, delta: number): number {
  return t - delta;
}

/**
 * The single code path shared by sampling and log-prob recompute (DESIGN.md §3 "Time", "Step").
 * For step i with t = t_i: v = velocity(x_i, t, d = δ), x0̂ = x_i − t·v, x1̂ = x_i + (1 − t)·v,
 * μ_i = w0·x0̂ + w1·x1̂ (clamped to [−c, c] with `denoisedClamp` c), with the method's weights on stochastic steps and
 * ODE weights elsewhere. Call inside tf.tidy (or tf.variableGrads); x0 [B, H, A], mask [B, K].
 */
export function runDenoiseChain(
  policy: FlowPolicy,
  obs: PolicyObs,
  x0: tf.Tensor,
  mask: tf.Tensor2D,
  options: SamplerOptions,
  next: NextChainElement,
): ChainPass {
  const { horizon, actionDim } = policy.options;
  const batch = x0.shape[0];
  const grid = timeGrid(options.steps, policy.options.timeGrid);
  const coefficients = stepCoefficients(options.method, options.steps, options.level);
  const features = policy.encode(obs);
  const stepSize = tf.fill([batch], grid.delta) as tf.Tensor1D;
  const elements: tf.Tensor[] = [x0];
  const stds: tf.Tensor[] = [];
  let logProb: tf.Tensor = tf.zeros([batch, horizon, actionDim]);
  let entropySum: tf.Tensor = tf.zeros([batch, horizon, actionDim]);
  let hiddenSum: tf.Tensor | undefined;
  const ones = tf.onesLike(x0);
  let x = x0;
  for (let stepIndex = 0; stepIndex < options.steps; stepIndex++) {
    const t = grid.times[stepIndex];
    const timeColumn = tf.fill([batch], grid.netTimes[stepIndex]) as tf.Tensor1D;
    const { velocity, hidden } = policy.velocity(x, timeColumn, stepSize, features);
    hiddenSum = hiddenSum ? tf.add(hiddenSum, hidden) : hidden;
    const v = tf.reshape(velocity, [batch, horizon, actionDim]);
    const stepMask = tf.reshape(tf.slice(mask, [0, stepIndex], [batch, 1]), [batch, 1, 1]);
    // Non-stochastic steps are ODE steps: w1 = t − δ (w0 is the same for every method).
    const ode = odeW1(t, grid.delta);
    const w1 = tf.add(tf.mul(stepMask, coefficients.w1[stepIndex] - ode), ode);
    const mean = clampMean(stepMean(x, v, t, coefficients.w0[stepIndex], w1), options.denoisedClamp);
    const std = options.method === 'noise'
      ? policy.noiseStd(features, timeColumn, options.bounds!, stepSize)
      : tf.mul(ones, coefficients.std[stepIndex]);
    const isStochastic = tf.greater(tf.add(stepMask, tf.zerosLike(x0)), 0.5);
    const xNext = next(stepIndex, mean, std, stepMask);
    // ODE steps have std 0; a unit std keeps their (discarded) density finite.
    const safeStd = tf.where(isStochastic, std, ones);
    logProb = tf.add(logProb, tf.mul(gaussianLogProb(xNext, mean, safeStd), stepMask));
    entropySum = tf.add(entropySum, tf.mul(gaussianEntropy(safeStd), stepMask));
    stds.push(tf.mul(std, stepMask));
    elements.push(xNext);
    x = xNext;
  }
  const stochasticCount = tf.sum(mask, 1) as tf.Tensor1D;
  if (options.mode === 'joint') {
    // K + 1 terms whatever the mask: cps's std-0 last step is a term of the chain (DESIGN.md §3 "Log-prob").
    logProb = tf.div(tf.add(logProb, standardNormalLogProb(x0)), options.steps + 1);
  }
  const valueInput = policy.options.valueOn === 'obs' ? features : (tf.div(hiddenSum!, options.steps) as tf.Tensor2D);
  const values = policy.value(valueInput);
  return { elements, logProb, entropySum, stochasticCount, values, stds };
}
