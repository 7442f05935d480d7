import * as tf from '@tensorflow/tfjs';
import { ConfigError, ShapeError } from '../errors';
import { alignLeading, keepMask, maskedMaxTf, maskedMeanTf, zeroMasked } from './masked-mean';
import type { LossResult } from './ppo-loss-result';

/** Clip settings of the PPO actor loss. */
export interface PpoActorOptions {
  /** ε_low: the ratio is clipped below at 1 − ε_low; in (0, 1). */
  clipLow: number;
  /** ε_high: the ratio is clipped above at 1 + ε_high; positive. */
  clipHigh: number;
  /** Dual-clip constant c > 1 bounding the loss by c·|A| where A < 0; undefined turns it off. */
  dualClip?: number;
  /**
   * ReinFlow's log-prob clamp: new and stored log-probs are clamped to [min, max] before the ratio (a new
   * log-prob outside passes no gradient); undefined turns it off. `ppo.logprob_clamp` in the run config.
   */
  logProbRange?: { min: number; max: number };
}

/**
 * Inputs of the PPO actor loss. The log-prob units are the elements of
 * `logProbs`, already reduced by logprob_type (DESIGN.md §3): [B] for chunk and mean,
 * [B, Ta] for action, [B, Ta, Ae] for token.
 */
export interface PpoActorInputs {
  /** [B, ...U] log-probs under the current weights; gradients flow through these. */
  logProbs: tf.Tensor;
  /** [B, ...U] log-probs stored at rollout time. */
  oldLogProbs: tf.Tensor;
  /** [B] or any leading prefix of [B, ...U]; broadcast over the remaining unit axes. */
  advantages: tf.Tensor;
  /** Optional 0/1 mask over a leading prefix of [B, ...U]. */
  mask?: tf.Tensor;
}

export type PpoActorMetricName =
  | 'losses/policy' | 'losses/approx_kl' | 'losses/clip_fraction' | 'losses/dual_clip_fraction'
  | 'losses/ratio_mean' | 'losses/ratio_max';

/** Throws a ConfigError naming the bad clip field. */
export function checkPpoActorOptions(options: PpoActorOptions): void {
  if (!(options.clipLow > 0 && options.clipLow < 1)) {
    throw new ConfigError('ppo.clip_low', `ppo.clip_low must be in (0, 1), got ${options.clipLow}`);
  }
  if (!(options.clipHigh > 0 && Number.isFinite(options.clipHigh))) {
    throw new ConfigError('ppo.clip_high', `ppo.clip_high must be a positive number, got ${options.clipHigh}`);
  }
  if (options.dualClip !== undefined && !(options.dualClip > 1 && Number.isFinite(options.dualClip))) {
    throw new ConfigError('ppo.dual_clip', `ppo.dual_clip must be a number above 1 (or unset), got ${options.dualClip}`);
  }
  const range = options.logProbRange;
  if (range !== undefined && !(Number.isFinite(range.min) && Number.isFinite(range.max) && range.min < range.max)) {
    throw new ConfigError('ppo.logprob_min', `ppo.logprob_min must be a finite number below ppo.logprob_max, got [${range.min}, ${range.max}]`);
  }
}

/**
 * PPO clipped surrogate (DESIGN.md §4), per unit:
 *   with logProbRange [lo, hi]: logp ← clamp(logp, lo, hi) and old_logp ← clamp(old_logp, lo, hi) first (ReinFlow)
 *   r = exp(logp − old_logp)
 *   loss = max(−A·r, −A·clip(r, 1−ε_low, 1+ε_high)), then min(loss, c·|A|) where A < 0 (dual clip)
 * and the masked mean over units. Metrics, all masked over units:
 *   approx_kl = mean((r − 1) − log r)        (one term per unit, so no growth with dims)
 *   clip_fraction = share of units where the clipped term wins
 *   dual_clip_fraction = share of units capped by c·|A|
 *   ratio_mean, ratio_max.
 */
export function ppoActorLoss(inputs: PpoActorInputs, options: PpoActorOptions): LossResult<PpoActorMetricName> {
  checkPpoActorOptions(options);
  const shape = inputs.logProbs.shape;
  if (inputs.oldLogProbs.shape.join(',') !== shape.join(',')) {
    throw new ShapeError('oldLogProbs', `oldLogProbs has shape [${inputs.oldLogProbs.shape.join(',')}], expected [${shape.join(',')}] like logProbs`);
  }
  return tf.tidy(() => {
    const keep = keepMask(inputs.mask, shape);
    const advantages = zeroMasked(tf.broadcastTo(alignLeading('advantages', inputs.advantages, shape), shape), keep);
    const range = options.logProbRange;
    const clamped = (logProbs: tf.Tensor) => (range ? tf.clipByValue(logProbs, range.min, range.max) : logProbs);
    const logRatio = zeroMasked(tf.sub(clamped(inputs.logProbs), clamped(inputs.oldLogProbs)), keep);
    const ratio = tf.exp(logRatio);
    const negAdvantages = tf.neg(advantages);
    const unclipped = tf.mul(negAdvantages, ratio);
    const clipped = tf.mul(negAdvantages, tf.clipByValue(ratio, 1 - options.clipLow, 1 + options.clipHigh));
    let perUnit = tf.maximum(unclipped, clipped);
    let dualClipped = tf.zerosLike(perUnit);
    if (options.dualClip !== undefined) {
      // The condition depends on A only, so no comparison sits on the gradient path.
      const negative = tf.less(advantages, 0);
      const cap = tf.mul(negAdvantages, options.dualClip);
      dualClipped = tf.cast(tf.logicalAnd(negative, tf.greater(perUnit, cap)), 'float32');
      perUnit = tf.where(negative, tf.minimum(perUnit, cap), perUnit);
    }
    const kl = tf.sub(tf.sub(ratio, 1), logRatio);
    const loss = maskedMeanTf(perUnit, inputs.mask);
    return {
      loss,
      metrics: {
        'losses/policy': tf.clone(loss),
        'losses/approx_kl': maskedMeanTf(kl, inputs.mask),
        'losses/clip_fraction': maskedMeanTf(tf.cast(tf.greater(clipped, unclipped), 'float32'), inputs.mask),
        'losses/dual_clip_fraction': maskedMeanTf(dualClipped, inputs.mask),
        'losses/ratio_mean': maskedMeanTf(ratio, inputs.mask),
        'losses/ratio_max': maskedMaxTf(ratio, inputs.mask),
      },
    };
  });
}
