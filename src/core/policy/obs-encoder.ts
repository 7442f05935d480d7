import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import { dense, layerNorm, mlpLayers, type ParamLookup } from './layers';
import type { FlowPolicyOptions } from './options';

/**
 * Observations for one batch.
 * - state encoder: `state` [B, nObsSteps, obsDim] or [B, nObsSteps·obsDim].
 * - pointcloud encoder: `points` [B, N, 3] and `proprio` [B, nObsSteps, obsDim] or flat.
 */
export interface PolicyObs {
  state?: tf.Tensor;
  points?: tf.Tensor;
  proprio?: tf.Tensor;
}

/** Batch size of the observation, validated against the encoder kind. */
export function obsBatchSize(options: FlowPolicyOptions, obs: PolicyObs): number {
  const flatSize = options.nObsSteps * options.obsDim;
  const field = options.obsEncoder === 'state' ? 'state' : 'proprio';
  const vector = obs[field];
  if (!vector) throw new ShapeError(`obs.${field}`, `obs.${field} is required for the ${options.obsEncoder} encoder`);
  const perRow = vector.shape.slice(1).reduce((product, size) => product * size, 1);
  if (vector.rank < 2 || perRow !== flatSize) {
    throw new ShapeError(`obs.${field}`, `obs.${field} must be [B, ${options.nObsSteps}, ${options.obsDim}] or [B, ${flatSize}], got [${vector.shape.join(', ')}]`);
  }
  if (options.obsEncoder === 'pointcloud') {
    const points = obs.points;
    if (!points || points.rank !== 3 || points.shape[2] !== 3 || points.shape[0] !== vector.shape[0]) {
      throw new ShapeError('obs.points', `obs.points must be [${vector.shape[0]}, N, 3], got ${points ? `[${points.shape.join(', ')}]` : 'nothing'}`);
    }
  }
  return vector.shape[0];
}

/** obs → features [B, F] (F = obsFeatureDim). State: MLP over the flattened history. Pointcloud: per-point MLP, max-pool over N, projection, LayerNorm, then the flat proprioception appended. */
export function encodeObs(param: ParamLookup, options: FlowPolicyOptions, obs: PolicyObs): tf.Tensor2D {
  const batch = obsBatchSize(options, obs);
  const flatSize = options.nObsSteps * options.obsDim;
  return tf.tidy(() => {
    if (options.obsEncoder === 'state') {
      const flat = tf.reshape(obs.state as tf.Tensor, [batch, flatSize]);
      return mlpLayers(param, 'encoder', flat, options.encoderHidden.length) as tf.Tensor2D;
    }
    const perPoint = mlpLayers(param, 'encoder.points', obs.points as tf.Tensor, options.encoderHidden.length);
    const pooled = tf.max(perPoint, 1);
    const projected = layerNorm(param, 'encoder.norm', dense(param, 'encoder.project', pooled));
    const proprio = tf.reshape(obs.proprio as tf.Tensor, [batch, flatSize]);
    return tf.concat([projected, proprio], 1) as tf.Tensor2D;
  });
}
