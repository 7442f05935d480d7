import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { chainStepMeans } from './chain-means';
import { sampleActions } from './sampler';
import { buildDenoiseMask, type SamplerOptions } from './sampling-options';

const [H, A, OBS] = [2, 3, 4];
let policy: FlowPolicy;

beforeAll(async () => {
  await useNodeBackend('wasm');
  policy = new FlowPolicy({ obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [16, 16], encoderHidden: [8], valueHidden: [8], noiseHidden: [8] }, 11);
});
afterAll(() => policy.dispose());

async function withObs<T>(batch: number, seed: number, body: (state: tf.Tensor2D) => Promise<T>): Promise<T> {
  const state = tf.tensor2d(createRng(seed).fillNormal(new Float32Array(batch * OBS)), [batch, OBS]);
  try {
    return await body(state);
  } finally {
    state.dispose();
  }
}

/** Float64 velocity of chain element `stepIndex` for every chain → [B, H·A]. */
async function velocityAt(state: tf.Tensor2D, chains: Float32Array, batch: number, steps: number, stepIndex: number): Promise<Float64Array> {
  const elementSize = H * A;
  const x = new Float32Array(batch * elementSize);
  for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
    const start = (chainIndex * (steps + 1) + stepIndex) * elementSize;
    x.set(chains.subarray(start, start + elementSize), chainIndex * elementSize);
  }
  const velocity = tf.tidy(() => policy.velocity(
    tf.tensor3d(x, [batch, H, A]), tf.fill([batch], 1 - stepIndex / steps) as tf.Tensor1D, tf.fill([batch], 1 / steps) as tf.Tensor1D, policy.encode({ state }),
  ).velocity);
  const data = Float64Array.from(await velocity.data());
  velocity.dispose();
  return data;
}

describe('chainStepMeans', () => {
  test('sde hybrid: μ_k matches the float64 step formula, and x_{k+1} = μ_k + std_k·ε with ε replayed from the seed', async () => {
    const [batch, steps, level, seed] = [5, 4, 0.8, 33];
    const options: SamplerOptions = { method: 'sde', mode: 'hybrid', steps, level };
    await withObs(batch, 2, async (state) => {
      const sample = await sampleActions(policy, { state }, options, createRng(seed));
      const { means, stds } = await chainStepMeans(policy, { state }, sample.chains, sample.denoiseInds, options);
      // Replay the sampler's draws: x_0, then one step index per chain, then K step noises.
      const rng = createRng(seed);
      const elementCount = batch * H * A;
      rng.fillNormal(new Float32Array(elementCount));
      const mask = buildDenoiseMask(options, batch, rng);
      const epsilon = rng.fillNormal(new Float32Array(steps * elementCount));
      expect(Array.from(mask)).toEqual(Array.from(sample.denoiseInds));
      const delta = 1 / steps;
      for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
        const v = await velocityAt(state, sample.chains, batch, steps, stepIndex);
        const t = 1 - stepIndex / steps;
        // σ_i = a·sqrt(t_i/(1 − t_i)), with t_1 = 0.75 in the denominator at i = 0: σ_0 = 0.8·sqrt(1/0.25) = 1.6.
        const sigma = level * Math.sqrt(t / (1 - (stepIndex === 0 ? 1 - delta : t)));
        for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
          const stochastic = mask[chainIndex * steps + stepIndex] === 1;
          // ODE steps use the Euler weights w1 = t − δ; the stochastic one w1 = t − δ − σ²·δ/(2t), std = sqrt(δ)·σ.
          const w0 = 1 - (t - delta);
          const w1 = stochastic ? t - delta - (sigma * sigma * delta) / (2 * t) : t - delta;
          const std = stochastic ? Math.sqrt(delta) * sigma : 0;
          for (let element = 0; element < H * A; element++) {
            const x = sample.chains[(chainIndex * (steps + 1) + stepIndex) * H * A + element];
            const xNext = sample.chains[(chainIndex * (steps + 1) + stepIndex + 1) * H * A + element];
            const velocity = v[chainIndex * H * A + element];
            const mean = w0 * (x - t * velocity) + w1 * (x + (1 - t) * velocity);
            const out = (chainIndex * steps + stepIndex) * H * A + element;
            expect(means[out]).toBeCloseTo(mean, 4);
            expect(stds[out]).toBeCloseTo(std, 6);
            expect(xNext).toBeCloseTo(means[out] + stds[out] * epsilon[stepIndex * elementCount + chainIndex * H * A + element], 4);
          }
        }
      }
    });
  });

  test('eval chains: every μ_k is the next element and every std is 0', async () => {
    const [batch, steps] = [3, 3];
    const options: SamplerOptions = { method: 'ode', mode: 'eval', steps, level: 0.5 };
    await withObs(batch, 8, async (state) => {
      const sample = await sampleActions(policy, { state }, options, createRng(4));
      const { means, stds } = await chainStepMeans(policy, { state }, sample.chains, sample.denoiseInds, options);
      expect(means.length).toBe(batch * steps * H * A);
      expect(stds.every((std) => std === 0)).toBe(true);
      for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
        for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
          for (let element = 0; element < H * A; element++) {
            const xNext = sample.chains[(chainIndex * (steps + 1) + stepIndex + 1) * H * A + element];
            expect(means[(chainIndex * steps + stepIndex) * H * A + element]).toBeCloseTo(xNext, 5);
          }
        }
      }
    });
  });

  test('leaves no tensors behind', async () => {
    const options: SamplerOptions = { method: 'cps', mode: 'hybrid', steps: 3, level: 0.4 };
    await withObs(2, 3, async (state) => {
      const sample = await sampleActions(policy, { state }, options, createRng(9));
      await chainStepMeans(policy, { state }, sample.chains, sample.denoiseInds, options);
      const before = tf.memory().numTensors;
      for (let call = 0; call < 3; call++) await chainStepMeans(policy, { state }, sample.chains, sample.denoiseInds, options);
      expect(tf.memory().numTensors).toBe(before);
    });
  });

  test('rejects chains or denoiseInds of the wrong size, naming the field', async () => {
    const options: SamplerOptions = { method: 'sde', mode: 'hybrid', steps: 2, level: 0.5 };
    await withObs(2, 5, async (state) => {
      const chains = new Float32Array(2 * 3 * H * A);
      await expect(chainStepMeans(policy, { state }, chains.subarray(1), new Float32Array(4), options)).rejects.toMatchObject({ name: 'ShapeError', field: 'chains' });
      await expect(chainStepMeans(policy, { state }, chains, new Float32Array(3), options)).rejects.toMatchObject({ name: 'ShapeError', field: 'denoiseInds' });
      await expect(chainStepMeans(policy, { state }, chains, new Float32Array(4), { ...options, level: 0 })).rejects.toMatchObject({ name: 'ConfigError', field: 'noise.level' });
    });
  });
});
