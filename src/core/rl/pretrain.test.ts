import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { ConfigError } from '../errors';
import { pretrainPolicy, type PretrainOptions } from './pretrain';
import { freshBundle, syntheticBcDataset, tinyConfig, weightSnapshot } from './fixtures/test-support';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const OBS_DIM = 3;
const ACTION_DIM = 2;
const config = tinyConfig(['policy.n_obs_steps=1']);
const horizon = config.policy.horizon;

const syntheticDataset = () => syntheticBcDataset(horizon, 64);

const OPTIONS: PretrainOptions = { steps: 1, batchSize: 16, learningRate: 3e-3, emaDecay: 0, shortcutFraction: 0.25, seed: 8 };

describe('pretrainPolicy', () => {
  it('lowers the flow-matching loss and reports it every logEvery steps; leaks no tensors', async () => {
    const bundle = freshBundle(config, OBS_DIM, ACTION_DIM);
    try {
      const tensors = tf.memory().numTensors;
      const logged: [number, number][] = [];
      const { finalLoss } = await pretrainPolicy(bundle.policy, syntheticDataset(), {
        ...OPTIONS, steps: 150, logEvery: 25, onProgress: (step, meanLoss) => logged.push([step, meanLoss]),
      });
      expect(logged.map(([step]) => step)).toEqual([25, 50, 75, 100, 125, 150]);
      expect(finalLoss).toBe(logged[5][1]);
      expect(finalLoss).toBeLessThan(0.8 * logged[0][1]);
      expect(tf.memory().numTensors).toBe(tensors);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('keeps the EMA of the weights: after one step, decay·θ0 + (1 − decay)·θ1', async () => {
    const raw = freshBundle(config, OBS_DIM, ACTION_DIM);
    const averaged = freshBundle(config, OBS_DIM, ACTION_DIM);
    try {
      const initial = await weightSnapshot(raw);
      // The same seed draws the same batch, so both take the same raw step θ0 → θ1.
      await pretrainPolicy(raw.policy, syntheticDataset(), OPTIONS);
      await pretrainPolicy(averaged.policy, syntheticDataset(), { ...OPTIONS, emaDecay: 0.75 });
      const stepped = await weightSnapshot(raw);
      const kept = await weightSnapshot(averaged);
      let moved = 0;
      for (const [name, before] of initial) {
        const after = stepped.get(name)!;
        const ema = kept.get(name)!;
        before.forEach((value, index) => {
          expect(ema[index]).toBeCloseTo(0.75 * value + 0.25 * after[index], 6);
          if (after[index] !== value) moved++;
        });
      }
      expect(moved).toBeGreaterThan(0);
    } finally {
      raw.policy.dispose();
      averaged.policy.dispose();
    }
  });

  it('rejects bad options with a config error naming the field', async () => {
    const bundle = freshBundle(config, OBS_DIM, ACTION_DIM);
    try {
      const dataset = syntheticDataset();
      const attempt = (options: Partial<PretrainOptions>) => pretrainPolicy(bundle.policy, dataset, { ...OPTIONS, ...options });
      await expect(attempt({ steps: 0 })).rejects.toThrow(ConfigError);
      await expect(attempt({ steps: 0 })).rejects.toThrow('steps must be a positive integer, got 0');
      await expect(attempt({ batchSize: 2.5 })).rejects.toThrow('batch_size must be a positive integer, got 2.5');
      await expect(attempt({ learningRate: 0 })).rejects.toThrow('lr must be > 0, got 0');
      await expect(attempt({ emaDecay: 1 })).rejects.toThrow('ema must be in [0, 1), got 1');
    } finally {
      bundle.policy.dispose();
    }
  });

  it('lets a host look at the averaged weights mid-training without changing where training ends', async () => {
    const plain = freshBundle(config, OBS_DIM, ACTION_DIM);
    const looked = freshBundle(config, OBS_DIM, ACTION_DIM);
    try {
      const options = { ...OPTIONS, steps: 6, emaDecay: 0.5 };
      await pretrainPolicy(plain.policy, syntheticDataset(), options);
      const seen: Map<string, Float32Array>[] = [];
      const steps: number[] = [];
      await pretrainPolicy(looked.policy, syntheticDataset(), {
        ...options,
        afterStep: async (step, averaged) => {
          steps.push(step);
          if (step === 3 || step === 6) seen.push(await averaged(() => weightSnapshot(looked)));
        },
      });
      expect(steps).toEqual([1, 2, 3, 4, 5, 6]);
      const end = await weightSnapshot(plain);
      // Training resumed from the raw weights: both runs end on the same averaged weights, which the last look saw.
      for (const [name, values] of end) {
        expect([...(await weightSnapshot(looked)).get(name)!]).toEqual([...values]);
        expect([...seen[1].get(name)!]).toEqual([...values]);
      }
      // At step 3 the average was elsewhere.
      const moved = [...end].some(([name, values]) => values.some((value, index) => value !== seen[0].get(name)![index]));
      expect(moved).toBe(true);
    } finally {
      plain.policy.dispose();
      looked.policy.dispose();
    }
  });
});
