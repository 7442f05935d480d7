import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import type { FlowPolicy } from './flow-policy';
import { pointFeatures } from './obs-encoder';

/**
 * What a PointNet encoder attends to in one frame (the studio's point-cloud overlay): for each of
 * the N points, the share of the per-point MLP's C channels whose max-pool it wins. Shares sum to 1.
 * `normalizedFrame` is one observation frame in the policy's normalized units, [points N×3 | proprio].
 */
export async function pointWinShares(policy: FlowPolicy, normalizedFrame: Float32Array): Promise<Float32Array> {
  const { options } = policy;
  if (options.obsEncoder !== 'pointcloud') throw new ShapeError('obsEncoder', 'max-pool wins exist only for a point-cloud encoder');
  const numPoints = options.numPoints;
  if (normalizedFrame.length < numPoints * 3) {
    throw new ShapeError('frame', `a frame of ${normalizedFrame.length} values cannot hold ${numPoints} points`);
  }
  const winners = tf.tidy(() => {
    const points = tf.tensor3d(normalizedFrame.subarray(0, numPoints * 3), [1, numPoints, 3]);
    return tf.argMax(pointFeatures(policy.param, options, points), 1);
  });
  const indices = (await winners.data()) as Int32Array;
  winners.dispose();
  const shares = new Float32Array(numPoints);
  for (const point of indices) shares[point] += 1 / indices.length;
  return shares;
}
