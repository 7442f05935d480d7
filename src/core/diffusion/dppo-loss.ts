/**
 * DPPO's PPO objective on a minibatch of denoising-step samples (DESIGN.md §17; irom-princeton/dppo
 * model/diffusion/diffusion_ppo.py PPODiffusion.loss). Each row is one fine-tuned step k of one decision:
 *   new, old log-prob: log N(x_{k+1}; μ_k, max(std_k, min_logprob_std)²) per element, clamped to [lo, hi], averaged
 *     over the first Ta (executed) actions and every action dim;
 *   advantages: normalized over the minibatch (mean, unbiased std + 1e−8), clipped to their [q_lo, q_hi] quantiles,
 *     times γ_denoise^(K' − k − 1);
 *   clip ε_k = ε_base + (ε − ε_base)·(e^{r·k/(K'−1)} − 1)/(e^r − 1);
 *   policy loss mean(max(−A·ρ, −A·clip(ρ, 1 − ε_k, 1 + ε_k))), approx_kl mean((ρ − 1) − log ρ), clip fraction
 *   mean(|ρ − 1| > ε_k); value loss ½·mean((V − R)²) (optionally clipped), the critic on the observation;
 *   optional BC: −(mean clamped log-prob of the base net's chains under the fine-tuned net).
 */
import * as tf from '@tensorflow/tfjs';
import { gaussianLogProb } from '../flow/gaussian';
import type { FlowPolicy } from '../policy/flow-policy';
import { minibatchObs, type PpoMinibatchMetric } from '../rl/ppo-minibatch-loss';
import { ppoCriticLoss, type PpoCriticOptions } from '../rl/ppo-loss-critic';
import { combinePpoLosses, type PpoLossWeights } from '../rl/ppo-loss-total';
import { predictEpsilon, stepMeanFromEpsilon, stepsAt, type ChainCoefficients } from './diffusion-step';

/** One minibatch of M denoising-step samples. */
export interface DppoMinibatch {
  /** [M, obsSize] normalized stacked observations */
  state: tf.Tensor;
  /** [M, cameras, S, S, C] an image policy's camera images (values 0..255) */
  images?: tf.Tensor;
  /** [M, H, A] x_k, the step's input */
  prev: tf.Tensor;
  /** [M, H, A] x_{k+1}, what the step drew */
  next: tf.Tensor;
  /** [M] k, the fine-tuned step's index 0..K'−1 (noisiest first) */
  step: tf.Tensor;
  /** [M] */
  advantages: tf.Tensor;
  returns: tf.Tensor;
  oldValues: tf.Tensor;
  /** [M, H, A] per-element log-probs stored at rollout time */
  oldLogProbs: tf.Tensor;
}

export interface DppoLossOptions {
  /** The chain's coefficients (index i = firstTuned + k). */
  coefficients: ChainCoefficients;
  firstTuned: number;
  ftSteps: number;
  denoisedClip: number;
  ddim: boolean;
  minLogprobStd: number;
  /** Executed actions Ta: the log-prob averages over the first Ta of H. */
  rewardHorizon: number;
  logProbRange?: { min: number; max: number };
  normalizeAdvantages: boolean;
  quantiles: { low: number; high: number };
  gammaDenoising: number;
  clipLow: number;
  clipHigh: number;
  clipBase: number;
  clipRate: number;
  critic: PpoCriticOptions;
  weights: PpoLossWeights;
  criticOnly: boolean;
}

/** The clip ε of fine-tuned step k (float64, DPPO's schedule; ε itself when K' = 1). */
export function dppoClipAt(k: number, ftSteps: number, clip: number, base: number, rate: number): number {
  if (ftSteps <= 1) return clip;
  return base + ((clip - base) * (Math.exp((rate * k) / (ftSteps - 1)) - 1)) / (Math.exp(rate) - 1);
}

/** Linear-interpolated quantile of a 1-D tensor (torch.quantile's default), as a scalar tensor. */
function quantile(values: tf.Tensor1D, q: number): tf.Scalar {
  const count = values.shape[0];
  const sorted = tf.reverse(tf.topk(values, count, true).values);
  const position = q * (count - 1);
  const lower = Math.floor(position);
  const upper = Math.min(count - 1, lower + 1);
  const low = tf.gather(sorted, lower);
  return tf.add(low, tf.mul(tf.sub(tf.gather(sorted, upper), low), position - lower)) as tf.Scalar;
}

/** Per-element log-probs [M, H, A] of x_{k+1} given x_k under `policy`, each row at chain index firstTuned + k. */
export function dppoStepLogProbs(policy: FlowPolicy, features: tf.Tensor2D, prev: tf.Tensor, next: tf.Tensor, step: tf.Tensor, options: DppoLossOptions): tf.Tensor {
  return tf.tidy(() => {
    const indices = tf.cast(tf.add(step, options.firstTuned), 'int32') as tf.Tensor1D;
    const coefficients = stepsAt(options.coefficients, indices);
    const epsilon = predictEpsilon(policy, prev, coefficients.netTime, features);
    const mean = stepMeanFromEpsilon(coefficients, prev, epsilon, options.denoisedClip, options.ddim);
    const std = tf.maximum(tf.mul(tf.onesLike(mean), coefficients.std), options.minLogprobStd);
    return gaussianLogProb(next, mean, std);
  });
}

/** Clamped per-element log-probs [M, H, A] → [M], the mean over the first `horizon` actions and all dims. */
function reduceStepLogProb(logProbs: tf.Tensor, horizon: number, range: DppoLossOptions['logProbRange']): tf.Tensor1D {
  const clamped = range ? tf.clipByValue(logProbs, range.min, range.max) : logProbs;
  const [rows, , dims] = clamped.shape;
  return tf.mean(tf.slice(clamped, [0, 0, 0], [rows, horizon, dims]), [1, 2]) as tf.Tensor1D;
}

/** DPPO's advantages: normalized, quantile-clipped, discounted per denoising step. */
export function dppoAdvantages(advantages: tf.Tensor1D, step: tf.Tensor1D, options: Pick<DppoLossOptions, 'normalizeAdvantages' | 'quantiles' | 'gammaDenoising' | 'ftSteps'>): tf.Tensor1D {
  return tf.tidy(() => {
    let out: tf.Tensor1D = advantages;
    const count = advantages.shape[0];
    if (options.normalizeAdvantages && count > 1) {
      const mean = tf.mean(out);
      const std = tf.sqrt(tf.div(tf.sum(tf.square(tf.sub(out, mean))), count - 1));
      out = tf.div(tf.sub(out, mean), tf.add(std, 1e-8));
    }
    if (options.quantiles.low > 0 || options.quantiles.high < 1) {
      const low = quantile(out, options.quantiles.low);
      const high = quantile(out, options.quantiles.high);
      out = tf.minimum(tf.maximum(out, low), high);
    }
    // γ^(K' − k − 1) = exp((K' − k − 1)·ln γ).
    const exponent = tf.sub(options.ftSteps - 1, step);
    return tf.mul(out, tf.exp(tf.mul(exponent, Math.log(options.gammaDenoising)))) as tf.Tensor1D;
  });
}

/** The DPPO loss of one minibatch and its metrics; `bcChains` [M, K'+1, H, A] are the base net's chains when ppo.bc_coef > 0. */
export function dppoMinibatchLoss(
  policy: FlowPolicy,
  batch: DppoMinibatch,
  options: DppoLossOptions,
  bcChains?: tf.Tensor,
): { loss: tf.Scalar; metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> } {
  const features = policy.encode(minibatchObs(batch, false));
  const values = policy.value(features);
  const critic = ppoCriticLoss({ values, oldValues: batch.oldValues, returns: batch.returns }, options.critic);
  const metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> = { 'losses/value': critic.loss };
  if (options.criticOnly) return { loss: combinePpoLosses({ value: critic.loss }, options.weights), metrics };

  const step = batch.step as tf.Tensor1D;
  const newLogProb = reduceStepLogProb(dppoStepLogProbs(policy, features, batch.prev, batch.next, step, options), options.rewardHorizon, options.logProbRange);
  const oldLogProb = reduceStepLogProb(batch.oldLogProbs, options.rewardHorizon, options.logProbRange);
  const advantages = dppoAdvantages(batch.advantages as tf.Tensor1D, step, options);
  const logRatio = tf.sub(newLogProb, oldLogProb);
  const ratio = tf.exp(logRatio);
  // Per-row clip: ε_k on each side, computed from k on the host's float64 schedule.
  const fraction = tf.div(tf.sub(tf.exp(tf.mul(tf.div(step, Math.max(1, options.ftSteps - 1)), options.clipRate)), 1), Math.exp(options.clipRate) - 1);
  const clipAt = (clip: number) => (options.ftSteps > 1 ? tf.add(options.clipBase, tf.mul(fraction, clip - options.clipBase)) : tf.fill(step.shape, clip));
  const clipLow = clipAt(options.clipLow);
  const clipHigh = clipAt(options.clipHigh);
  const clipped = tf.minimum(tf.maximum(ratio, tf.sub(1, clipLow)), tf.add(1, clipHigh));
  const policyLoss = tf.mean(tf.maximum(tf.mul(tf.neg(advantages), ratio), tf.mul(tf.neg(advantages), clipped))) as tf.Scalar;
  metrics['losses/policy'] = policyLoss;
  metrics['losses/approx_kl'] = tf.mean(tf.sub(tf.sub(ratio, 1), logRatio)) as tf.Scalar;
  const outside = tf.logicalOr(tf.greater(ratio, tf.add(1, clipHigh)), tf.less(ratio, tf.sub(1, clipLow)));
  metrics['losses/clip_fraction'] = tf.mean(tf.cast(outside, 'float32')) as tf.Scalar;
  metrics['losses/ratio_mean'] = tf.mean(ratio) as tf.Scalar;
  metrics['losses/ratio_max'] = tf.max(ratio) as tf.Scalar;

  let bc: tf.Scalar | undefined;
  if (bcChains) {
    const [rows, elements, horizon, dims] = bcChains.shape;
    const steps = elements - 1;
    const repeatRows = (tensor: tf.Tensor) => tf.reshape(tf.tile(tf.expandDims(tensor, 1), [1, steps, ...tensor.shape.slice(1).map(() => 1)]), [rows * steps, ...tensor.shape.slice(1)]);
    const prev = tf.reshape(tf.slice(bcChains, [0, 0, 0, 0], [rows, steps, horizon, dims]), [rows * steps, horizon, dims]);
    const next = tf.reshape(tf.slice(bcChains, [0, 1, 0, 0], [rows, steps, horizon, dims]), [rows * steps, horizon, dims]);
    const bcStep = tf.tile(tf.range(0, steps, 1, 'float32'), [rows]);
    const logProbs = dppoStepLogProbs(policy, repeatRows(features) as tf.Tensor2D, prev, next, bcStep, options);
    bc = tf.neg(tf.mean(reduceStepLogProb(logProbs, horizon, options.logProbRange))) as tf.Scalar;
    metrics['losses/bc'] = bc;
  }
  return { loss: combinePpoLosses({ policy: policyLoss, value: critic.loss, bc }, options.weights), metrics };
}
