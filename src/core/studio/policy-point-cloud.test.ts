import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { freshBundle, tinyConfig } from '../rl/fixtures/test-support';
import { policyPointCloud } from './policy-point-cloud';

const NUM_POINTS = 16;
const PROPRIO = 6;
const FRAME = NUM_POINTS * 3 + PROPRIO;

describe('policyPointCloud', () => {
  beforeAll(async () => {
    await useNodeBackend('cpu');
  });

  it('returns the newest frame\'s points in env units with shares that sum to 1', async () => {
    const config = tinyConfig(['policy.n_obs_steps=2', 'env.obs_type=pointcloud', `env.num_points=${NUM_POINTS}`, 'policy.encoder_hidden=16']);
    const bundle = freshBundle(config, FRAME, 4, 7);
    try {
      const rng = createRng(Math.floor(Math.random() * 2 ** 31));
      const stacked = new Float32Array(2 * FRAME).map(() => 3 * rng.uniform() - 1.5);
      const before = tf.memory().numTensors;
      const cloud = (await policyPointCloud(bundle, stacked))!;
      expect(tf.memory().numTensors).toBe(before);
      // The second (newest) frame's first N×3 values, untouched by the normalizer.
      expect(Array.from(cloud.points)).toEqual(Array.from(stacked.subarray(FRAME, FRAME + NUM_POINTS * 3)));
      expect(cloud.shares).toHaveLength(NUM_POINTS);
      expect(cloud.shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 5);
      expect(cloud.shares.every((share) => share >= 0)).toBe(true);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('has nothing to show for a state policy', async () => {
    const config = tinyConfig();
    const bundle = freshBundle(config, PROPRIO, 4);
    try {
      expect(await policyPointCloud(bundle, new Float32Array(PROPRIO))).toBeUndefined();
    } finally {
      bundle.policy.dispose();
    }
  });
});
