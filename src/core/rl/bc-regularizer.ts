import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import { stopGradient } from '../policy/stop-gradient';
import type { LossResult } from './ppo-loss-result';

/** The executed part of a chunk that the regularizer compares (DESIGN.md §3 "Log-prob" slices the same). */
export interface BcRegularizerSlice {
  /** Ta: leading chunk positions the env runs. */
  nActionSteps: number;
  /** Ae: leading action dims the env reads. */
  envActionDim: number;
}

/**
 * BC regularizer toward a frozen reference policy (DESIGN.md §12, ReinFlow and DPPO): the mean of
 * (a_θ − a_ref)² over [B, Ta, Ae], the executed positions and the env's action dims of two
 * deterministic chunks from the same x_0, in the policy's normalized action units (both policies
 * share the normalizers). `actions` and `referenceActions` are [B, H, A];
 * gradients flow through `actions` only. Returns the unscaled mean as loss and as `losses/bc`.
 */
export function bcRegularizerLoss(actions: tf.Tensor, referenceActions: tf.Tensor, slice: BcRegularizerSlice): LossResult<'losses/bc'> {
  const shape = actions.shape;
  if (actions.rank !== 3 || referenceActions.shape.join(',') !== shape.join(',')) {
    throw new ShapeError('referenceActions', `actions and referenceActions must both be [B, H, A], got [${shape.join(', ')}] and [${referenceActions.shape.join(', ')}]`);
  }
  const [batch, horizon, actionDim] = shape;
  if (!(slice.nActionSteps >= 1 && slice.nActionSteps <= horizon && slice.envActionDim >= 1 && slice.envActionDim <= actionDim)) {
    throw new ShapeError('slice', `the executed slice [${slice.nActionSteps}, ${slice.envActionDim}] must fit the chunk [H, A] = [${horizon}, ${actionDim}]`);
  }
  return tf.tidy(() => {
    const executed = (tensor: tf.Tensor) => tf.slice(tensor, [0, 0, 0], [batch, slice.nActionSteps, slice.envActionDim]);
    const difference = tf.sub(executed(actions), stopGradient(executed(referenceActions)));
    const loss = tf.mean(tf.square(difference)) as tf.Scalar;
    return { loss, metrics: { 'losses/bc': tf.clone(loss) } };
  });
}
