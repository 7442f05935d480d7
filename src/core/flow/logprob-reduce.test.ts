import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { gaussianEntropy, gaussianLogProb, standardNormalLogProb } from './gaussian';
import { reduceLogProb } from './logprob-reduce';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('gaussian densities', () => {
  test('log N and entropy against float64 on fresh inputs', async () => {
    const rng = createRng(3);
    const count = 64;
    const x = Float64Array.from({ length: count }, () => rng.normal());
    const mean = Float64Array.from({ length: count }, () => rng.normal());
    const std = Float64Array.from({ length: count }, () => 0.05 + rng.uniform());
    const [logProb, standard, entropy] = tf.tidy(() => {
      const xs = tf.tensor1d(Float32Array.from(x));
      const stds = tf.tensor1d(Float32Array.from(std));
      return [gaussianLogProb(xs, tf.tensor1d(Float32Array.from(mean)), stds), standardNormalLogProb(xs), gaussianEntropy(stds)];
    });
    const [logProbData, standardData, entropyData] = await Promise.all([logProb.data(), standard.data(), entropy.data()]);
    for (let offset = 0; offset < count; offset++) {
      const xf = Math.fround(x[offset]);
      const mf = Math.fround(mean[offset]);
      const sf = Math.fround(std[offset]);
      const z = (xf - mf) / sf;
      expect(logProbData[offset]).toBeCloseTo(-0.5 * z * z - Math.log(sf) - 0.5 * Math.log(2 * Math.PI), 3);
      expect(standardData[offset]).toBeCloseTo(-0.5 * xf * xf - 0.5 * Math.log(2 * Math.PI), 4);
      expect(entropyData[offset]).toBeCloseTo(0.5 * Math.log(2 * Math.PI * Math.E * sf * sf), 5);
    }
    // Hand value: x = 1, μ = 0, σ = 2 → −1/8 − ln 2 − 0.9189385 = −1.7370857
    const hand = tf.tidy(() => gaussianLogProb(tf.scalar(1), tf.scalar(0), tf.scalar(2)));
    expect((await hand.data())[0]).toBeCloseTo(-1.7370857, 5);
    tf.dispose([logProb, standard, entropy, hand]);
  });
});

describe('log-prob reductions (DESIGN.md §3)', () => {
  // B = 2, H = 3, A = 2, sliced to Ta = 2, Ae = 1.
  const values = [
    1, 2, 3, 4, 5, 6,
    -1, -2, -3, -4, -5, -6,
  ];

  test('token, action and chunk against hand values', async () => {
    const perElement = tf.tensor3d(values, [2, 3, 2]);
    const slice = { nActionSteps: 2, envActionDim: 1 };
    const token = reduceLogProb(perElement, { ...slice, logprobType: 'token' });
    const action = reduceLogProb(perElement, { ...slice, logprobType: 'action' });
    const chunk = reduceLogProb(perElement, { ...slice, logprobType: 'chunk' });
    // Kept elements: chain 0 positions 0, 1 dim 0 → 1, 3; chain 1 → −1, −3.
    expect(token.shape).toEqual([2, 2, 1]);
    expect(Array.from(await token.data())).toEqual([1, 3, -1, -3]);
    expect(action.shape).toEqual([2, 2]);
    expect(Array.from(await action.data())).toEqual([1, 3, -1, -3]);
    expect(chunk.shape).toEqual([2]);
    expect(Array.from(await chunk.data())).toEqual([4, -4]);
    const fullAction = reduceLogProb(perElement, { nActionSteps: 2, envActionDim: 2, logprobType: 'action' });
    // [1+2, 3+4], [−1−2, −3−4]
    expect(Array.from(await fullAction.data())).toEqual([3, 7, -3, -7]);
    tf.dispose([perElement, token, action, chunk, fullAction]);
  });

  test('mean: the average over the whole horizon and the env dims, whatever n_action_steps', async () => {
    const perElement = tf.tensor3d(values, [2, 3, 2]);
    // Ta = 2 is ignored: all H = 3 positions count. Ae = 1: dim 0 of each → (1 + 3 + 5)/3 = 3 and (−1 − 3 − 5)/3 = −3.
    const mean = reduceLogProb(perElement, { nActionSteps: 2, envActionDim: 1, logprobType: 'mean' });
    expect(mean.shape).toEqual([2]);
    expect(Array.from(await mean.data())).toEqual([3, -3]);
    // Ae = A = 2: (1 + 2 + … + 6)/6 = 21/6 = 3.5, and −3.5.
    const full = reduceLogProb(perElement, { nActionSteps: 1, envActionDim: 2, logprobType: 'mean' });
    expect(Array.from(await full.data())).toEqual([3.5, -3.5]);
    tf.dispose([perElement, mean, full]);
  });

  test('fresh random tensors against float64 sums', async () => {
    const rng = createRng(8);
    const [batch, horizon, actionDim] = [3, 5, 4];
    const data = Float32Array.from({ length: batch * horizon * actionDim }, () => rng.normal());
    const perElement = tf.tensor3d(data, [batch, horizon, actionDim]);
    const slice = { nActionSteps: 3, envActionDim: 2 };
    const action = reduceLogProb(perElement, { ...slice, logprobType: 'action' });
    const chunk = reduceLogProb(perElement, { ...slice, logprobType: 'chunk' });
    const actionData = await action.data();
    const chunkData = await chunk.data();
    for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
      let chunkSum = 0;
      for (let position = 0; position < slice.nActionSteps; position++) {
        let actionSum = 0;
        for (let dim = 0; dim < slice.envActionDim; dim++) actionSum += data[(chainIndex * horizon + position) * actionDim + dim];
        expect(actionData[chainIndex * slice.nActionSteps + position]).toBeCloseTo(actionSum, 5);
        chunkSum += actionSum;
      }
      expect(chunkData[chainIndex]).toBeCloseTo(chunkSum, 5);
    }
    tf.dispose([perElement, action, chunk]);
  });

  test('bad slices and types throw named errors', () => {
    const perElement = tf.zeros([2, 3, 2]);
    expect(() => reduceLogProb(perElement, { nActionSteps: 4, envActionDim: 2, logprobType: 'chunk' }))
      .toThrow(expect.objectContaining({ name: 'ConfigError', field: 'policy.n_action_steps' }));
    expect(() => reduceLogProb(perElement, { nActionSteps: 2, envActionDim: 3, logprobType: 'chunk' }))
      .toThrow(expect.objectContaining({ name: 'ConfigError', field: 'envActionDim' }));
    expect(() => reduceLogProb(perElement, { nActionSteps: 2, envActionDim: 2, logprobType: 'step' as 'chunk' }))
      .toThrow(/logprob_type must be one of token, action, chunk/);
    expect(() => reduceLogProb(tf.zeros([2, 3]), { nActionSteps: 2, envActionDim: 2, logprobType: 'chunk' }))
      .toThrow(expect.objectContaining({ name: 'ShapeError', field: 'logProbs' }));
    perElement.dispose();
  });
});
