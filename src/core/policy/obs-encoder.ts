import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import { dense, layerNorm, mlpLayers, type ParamLookup } from './layers';
import { obsFeatureDim, obsFrameSize, obsTokenCount, type FlowPolicyOptions } from './options';
import { imageFeatures } from './image-encoder';

/**
 * Observations for one batch, one of:
 * - `state`: the normalized history [B, nObsSteps, frame] or [B, nObsSteps·frame], where a frame is
 *   the state vector, or [points N×3 | proprioception] for the pointcloud encoder (the env's layout),
 *   or the proprioception for the image encoder, with `images` beside it;
 * - `features`: encoder output computed earlier [B, obsFeatureDim] (a frozen encoder's stored features).
 */
export interface PolicyObs {
  state?: tf.Tensor;
  /** Image encoder only: [B, cameras, size, size, channels] float32 holding the uint8 pixel values 0..255, never normalized. */
  images?: tf.Tensor;
  features?: tf.Tensor;
}

/** Throws a ShapeError unless `images` is [batch, cameras, size, size, channels] for the policy's image encoder. */
function checkImages(options: FlowPolicyOptions, images: tf.Tensor | undefined, batch: number): void {
  const image = options.image!;
  const expected = [batch, image.cameras.length, image.size, image.size, image.channels];
  if (!images || images.rank !== 5 || images.shape.some((size, axis) => size !== expected[axis])) {
    throw new ShapeError('obs.images', `obs.images must be [${expected.join(', ')}] for an image policy, got ${images ? `[${images.shape.join(', ')}]` : 'nothing'}`);
  }
}

/** Batch size of the observation, validated against the encoder. */
export function obsBatchSize(options: FlowPolicyOptions, obs: PolicyObs): number {
  const field = obs.features ? 'features' : 'state';
  const vector = obs[field];
  if (!vector) throw new ShapeError('obs.state', `obs.state (or stored obs.features) is required for the ${options.obsEncoder} encoder`);
  const expected = field === 'features' ? obsFeatureDim(options) : options.nObsSteps * obsFrameSize(options);
  const perRow = vector.shape.slice(1).reduce((product, size) => product * size, 1);
  if (vector.rank < 2 || perRow !== expected) {
    const shape = field === 'features' ? `[B, ${expected}]` : `[B, ${options.nObsSteps}, ${obsFrameSize(options)}] or [B, ${expected}]`;
    throw new ShapeError(`obs.${field}`, `obs.${field} must be ${shape}, got [${vector.shape.join(', ')}]`);
  }
  if (field === 'state' && options.obsEncoder === 'image') checkImages(options, obs.images, vector.shape[0]);
  return vector.shape[0];
}

/**
 * Max over the points of per-point features x [R, N, C] → [R, C]. The gradient goes to the point
 * that won each channel, scattered by its index; the built-in gradient compares every element
 * with the broadcast maximum, which on wasm costs several times the whole per-point MLP.
 */
export const maxPoolPoints = tf.customGrad(((x: tf.Tensor3D, save: (tensors: tf.Tensor[]) => void) => {
  const winners = tf.argMax(x, 1) as tf.Tensor2D;
  save([winners]);
  const [rows, points, channels] = x.shape;
  return {
    value: tf.max(x, 1),
    gradFunc: (dy: tf.Tensor2D, saved: tf.Tensor[]) => {
      const rowIndex = tf.reshape(tf.tile(tf.reshape(tf.range(0, rows, 1, 'int32'), [rows, 1]), [1, channels]), [rows * channels, 1]);
      const channelIndex = tf.reshape(tf.tile(tf.range(0, channels, 1, 'int32'), [rows]), [rows * channels, 1]);
      const pointIndex = tf.reshape(saved[0], [rows * channels, 1]);
      const indices = tf.concat([rowIndex, pointIndex, channelIndex], 1);
      return tf.scatterND(indices, tf.reshape(dy, [rows * channels]), [rows, points, channels]);
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor3D) => tf.Tensor2D;

/**
 * PointNet over frames [R, frame] (DESIGN.md §3 "Obs encoders"): per-point MLP over the N points,
 * max-pool, projection and LayerNorm, then the frame's proprioception appended → [R, tokenDim].
 */
function pointNetTokens(param: ParamLookup, options: FlowPolicyOptions, frames: tf.Tensor2D): tf.Tensor2D {
  const rows = frames.shape[0];
  const pointValues = options.numPoints * 3;
  const points = tf.reshape(tf.slice(frames, [0, 0], [rows, pointValues]), [rows, options.numPoints, 3]);
  const proprio = tf.slice(frames, [0, pointValues], [rows, options.obsDim]);
  const pooled = maxPoolPoints(pointFeatures(param, options, points));
  const projected = layerNorm(param, 'encoder.norm', dense(param, 'encoder.project', pooled));
  return tf.concat([projected, proprio], 1) as tf.Tensor2D;
}

/** The per-point MLP output [R, N, C] before the max-pool (what the pool picks from). */
export function pointFeatures(param: ParamLookup, options: FlowPolicyOptions, points: tf.Tensor): tf.Tensor3D {
  return mlpLayers(param, 'encoder.points', points, options.encoderHidden.length) as tf.Tensor3D;
}

/**
 * obs → features [B, tokens·tokenDim] (see `obsTokenCount`). State feeding the MLP: one MLP over the
 * flattened history. Otherwise each history frame is encoded alone (shared weights) into one token;
 * an image policy's one frame is [each camera's CNN features | proprioception].
 */
export function encodeObs(param: ParamLookup, options: FlowPolicyOptions, obs: PolicyObs): tf.Tensor2D {
  const batch = obsBatchSize(options, obs);
  if (obs.features) return tf.reshape(obs.features, [batch, obsFeatureDim(options)]) as tf.Tensor2D;
  return tf.tidy(() => {
    const state = obs.state as tf.Tensor;
    const tokens = obsTokenCount(options);
    const frames = tf.reshape(state, [batch * tokens, (options.nObsSteps * obsFrameSize(options)) / tokens]) as tf.Tensor2D;
    const encoded = options.obsEncoder === 'pointcloud'
      ? pointNetTokens(param, options, frames)
      : options.obsEncoder === 'image'
        ? tf.concat([imageFeatures(param, options.image!, obs.images!), frames], 1)
        : mlpLayers(param, 'encoder', frames, options.encoderHidden.length);
    return tf.reshape(encoded, [batch, obsFeatureDim(options)]) as tf.Tensor2D;
  });
}
