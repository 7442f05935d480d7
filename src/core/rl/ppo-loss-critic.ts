import * as tf from '@tensorflow/tfjs';
import { ConfigError, ShapeError } from '../errors';
import { keepMask, maskedMeanTf, zeroMasked } from './masked-mean';
import type { LossResult } from './ppo-loss-result';

export type ValueLossType = 'mse' | 'huber';

/** Settings of the PPO critic loss. */
export interface PpoCriticOptions {
  /** 'mse' is ½e²; 'huber' is ½e² for |e| ≤ δ and δ·(|e| − ½δ) beyond. */
  lossType: ValueLossType;
  /** Huber threshold δ > 0 (default 1). */
  huberDelta?: number;
  /** Value clip ε around the old value; undefined turns clipping off. */
  clipRange?: number;
}

/** Inputs of the critic loss; all share one shape, typically [B]. */
export interface PpoCriticInputs {
  /** [B] predictions under the current weights; gradients flow through these. */
  values: tf.Tensor;
  /** [B] predictions stored at rollout time. */
  oldValues: tf.Tensor;
  /** [B] value targets (returns = A + V). */
  returns: tf.Tensor;
  /** Optional 0/1 mask over a leading prefix of the shape. */
  mask?: tf.Tensor;
}

export type PpoCriticMetricName = 'losses/value' | 'losses/value_clip_fraction';

const LOSS_TYPES: readonly ValueLossType[] = ['mse', 'huber'];

/** Elementwise ½e² or Huber(e). Returns [...error.shape]. */
function elementLoss(error: tf.Tensor, lossType: ValueLossType, delta: number): tf.Tensor {
  if (lossType === 'mse') return tf.mul(tf.square(error), 0.5);
  // ½·min(|e|, δ)² + δ·(|e| − min(|e|, δ)): the same piecewise function, with no
  // comparison on the gradient path (tfjs has no gradient for comparisons).
  const magnitude = tf.abs(error);
  const inner = tf.minimum(magnitude, delta);
  return tf.add(tf.mul(tf.square(inner), 0.5), tf.mul(tf.sub(magnitude, inner), delta));
}

/**
 * PPO critic loss (DESIGN.md §4), per element with e = V − R:
 *   unclipped = ℓ(V − R)
 *   with clip ε: V_clip = V_old + clip(V − V_old, −ε, ε), loss = max(ℓ(V − R), ℓ(V_clip − R))
 * and the masked mean. value_clip_fraction is the share where the clipped term wins.
 */
export function ppoCriticLoss(inputs: PpoCriticInputs, options: PpoCriticOptions): LossResult<PpoCriticMetricName> {
  if (!LOSS_TYPES.includes(options.lossType)) {
    throw new ConfigError('ppo.value_loss', `ppo.value_loss must be one of ${LOSS_TYPES.join(', ')}, got '${options.lossType}'`);
  }
  const delta = options.huberDelta ?? 1;
  if (!(delta > 0 && Number.isFinite(delta))) {
    throw new ConfigError('ppo.huber_delta', `ppo.huber_delta must be a positive number, got ${delta}`);
  }
  if (options.clipRange !== undefined && !(options.clipRange > 0 && Number.isFinite(options.clipRange))) {
    throw new ConfigError('ppo.value_clip', `ppo.value_clip must be a positive number (or unset), got ${options.clipRange}`);
  }
  const shape = inputs.values.shape;
  for (const field of ['oldValues', 'returns'] as const) {
    if (inputs[field].shape.join(',') !== shape.join(',')) {
      throw new ShapeError(field, `${field} has shape [${inputs[field].shape.join(',')}], expected [${shape.join(',')}] like values`);
    }
  }
  return tf.tidy(() => {
    const keep = keepMask(inputs.mask, shape);
    const values = zeroMasked(inputs.values, keep);
    const returns = zeroMasked(inputs.returns, keep);
    const unclipped = elementLoss(tf.sub(values, returns), options.lossType, delta);
    let perElement = unclipped;
    let clipWins: tf.Tensor = tf.zerosLike(unclipped);
    if (options.clipRange !== undefined) {
      const oldValues = zeroMasked(inputs.oldValues, keep);
      const clippedValues = tf.add(oldValues, tf.clipByValue(tf.sub(values, oldValues), -options.clipRange, options.clipRange));
      const clipped = elementLoss(tf.sub(clippedValues, returns), options.lossType, delta);
      perElement = tf.maximum(unclipped, clipped);
      clipWins = tf.cast(tf.greater(clipped, unclipped), 'float32');
    }
    const loss = maskedMeanTf(perElement, inputs.mask);
    return {
      loss,
      metrics: {
        'losses/value': tf.clone(loss),
        'losses/value_clip_fraction': maskedMeanTf(clipWins, inputs.mask),
      },
    };
  });
}
