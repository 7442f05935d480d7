import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import type { MetricRecord } from '../metrics/metric-keys';
import { pretrainPolicy } from '../rl/pretrain';
import { bitsOf, freshBundle, syntheticBcDataset, tinyConfig, weightSnapshot } from '../rl/fixtures/test-support';
import { trainWeightedBc, type WeightedBcOptions } from './weighted-bc';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const OBS_DIM = 3;
const ACTION_DIM = 2;
const config = tinyConfig(['policy.n_obs_steps=1']);
const horizon = config.policy.horizon;
const OPTIONS: Omit<WeightedBcOptions, 'onProgress'> = { steps: 40, batchSize: 16, learningRate: 3e-3, emaDecay: 0.9, shortcutFraction: 0.25, seed: 8 };

const syntheticDataset = () => syntheticBcDataset(horizon, 48);

describe('trainWeightedBc', () => {
  it('with every weight 1 is exactly stage 1: the same weights, bit for bit, as pretrainPolicy', async () => {
    const dataset = syntheticDataset();
    const stageOne = freshBundle(config, OBS_DIM, ACTION_DIM, 5);
    const stageTwo = freshBundle(config, OBS_DIM, ACTION_DIM, 5);
    try {
      await pretrainPolicy(stageOne.policy, dataset, OPTIONS);
      await trainWeightedBc(stageTwo.policy, { ...dataset, weights: new Float32Array(dataset.size).fill(1), clipped: new Uint8Array(dataset.size) }, OPTIONS);
      const [one, two] = [await weightSnapshot(stageOne), await weightSnapshot(stageTwo)];
      for (const [name, values] of one) expect(Array.from(bitsOf(two.get(name)!)), name).toEqual(Array.from(bitsOf(values)));
    } finally {
      stageOne.policy.dispose();
      stageTwo.policy.dispose();
    }
  });

  it('reports the drawn weights every logEvery steps and leaks no tensors', async () => {
    const dataset = syntheticDataset();
    // Odd rows weigh 1.5 and count as clipped, even rows 0.5: a window's mean weight is 0.5 + its clipped fraction.
    const clipped = Uint8Array.from({ length: dataset.size }, (_, row) => row % 2);
    const weights = Float32Array.from(clipped, (flag) => 0.5 + flag);
    const bundle = freshBundle(config, OBS_DIM, ACTION_DIM, 6);
    try {
      const tensors = tf.memory().numTensors;
      const logged: [number, MetricRecord][] = [];
      const { finalLoss } = await trainWeightedBc(bundle.policy, { ...dataset, weights, clipped }, { ...OPTIONS, steps: 30, logEvery: 10, onProgress: (step, record) => logged.push([step, record]) });
      expect(tf.memory().numTensors).toBe(tensors);
      expect(logged.map(([step]) => step)).toEqual([10, 20, 30]);
      for (const [, record] of logged) {
        expect(Object.keys(record).sort()).toEqual(['advantages/weight_clipped', 'advantages/weight_max', 'advantages/weight_mean', 'losses/weighted_bc']);
        expect(record['advantages/weight_mean']!).toBeCloseTo(0.5 + record['advantages/weight_clipped']!, 10);
        expect(record['advantages/weight_max']).toBe(1.5);
        expect(record['advantages/weight_clipped']!).toBeGreaterThan(0.3);
        expect(record['advantages/weight_clipped']!).toBeLessThan(0.7);
      }
      expect(finalLoss).toBe(logged[2][1]['losses/weighted_bc']);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('names mismatched samples', async () => {
    const dataset = syntheticDataset();
    const bundle = freshBundle(config, OBS_DIM, ACTION_DIM, 6);
    try {
      await expect(trainWeightedBc(bundle.policy, { ...dataset, weights: new Float32Array(3), clipped: new Uint8Array(dataset.size) }, OPTIONS))
        .rejects.toThrow(expect.objectContaining({ name: 'ShapeError', field: 'samples' }));
      await expect(trainWeightedBc(bundle.policy, { ...dataset, weights: new Float32Array(dataset.size), clipped: new Uint8Array(dataset.size) }, { ...OPTIONS, steps: 0 }))
        .rejects.toThrow('steps must be a positive integer, got 0');
    } finally {
      bundle.policy.dispose();
    }
  });
});
