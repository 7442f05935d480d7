import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from './flow-policy';
import { maxPoolPoints } from './obs-encoder';
import { pointWinShares } from './point-wins';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('PointNet max-pool', () => {
  test('max-pool gradient goes to the winning point of each channel', async () => {
    // Two points, two channels: point 1 wins channel 0 (5 > 1), point 0 wins channel 1 (4 > 2).
    const x = tf.tensor3d([[[1, 4], [5, 2]]]);
    const pooled = maxPoolPoints(x);
    expect(Array.from(await pooled.data())).toEqual([5, 4]);
    // d/dx Σ pooled·[10, 20] → 10 at (1, 0) and 20 at (0, 1), zero elsewhere.
    const grad = tf.grad((input: tf.Tensor) => tf.sum(tf.mul(maxPoolPoints(input as tf.Tensor3D), tf.tensor1d([10, 20]))))(x);
    expect(Array.from(await grad.data())).toEqual([0, 20, 10, 0]);
    tf.dispose([x, pooled, grad]);
  });

  test('win shares count the channels each point wins and sum to 1; a state encoder has none', async () => {
    const policy = new FlowPolicy({ obsEncoder: 'pointcloud', numPoints: 6, obsDim: 2, nObsSteps: 1, horizon: 2, actionDim: 2, encoderHidden: [8, 16] }, 3);
    try {
      const frame = new Float32Array([0, 0, 0, 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1, -0.1, 0, 0, 0, -0.1, 0, 0.5, 0.5]);
      const shares = await pointWinShares(policy, frame);
      expect(shares.length).toBe(6);
      expect(shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 5);
      // Each share is a count of the 16 channels: a multiple of 1/16.
      for (const share of shares) expect(Math.abs(share * 16 - Math.round(share * 16))).toBeLessThan(1e-4);
      await expect(pointWinShares(new FlowPolicy({ obsDim: 3, horizon: 2, actionDim: 2 }), frame)).rejects.toThrow(/point-cloud encoder/);
    } finally {
      policy.dispose();
    }
  });
});
