import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { reduceLogProb, type LogProbSlice } from './logprob-reduce';
import { sampleActions } from './sampler';
import type { SamplerOptions } from './sampling-options';

const [H, A, OBS, BATCH] = [4, 3, 5, 6];
let policy: FlowPolicy;
let state: tf.Tensor2D;

beforeAll(async () => {
  await useNodeBackend('wasm');
  policy = new FlowPolicy({ obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [16, 16], encoderHidden: [8], valueHidden: [8], noiseHidden: [8] }, 5);
  state = tf.tensor2d(createRng(2).fillNormal(new Float32Array(BATCH * OBS)), [BATCH, OBS]);
});
afterAll(() => {
  state.dispose();
  policy.dispose();
});

function bits(values: Float32Array): number[] {
  return Array.from(new Uint32Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)));
}

/** The old rollout path: download per-element log-probs, upload them again, reduce, download. */
async function twoStepReduced(perElement: Float32Array, slice: LogProbSlice): Promise<{ values: Float32Array; shape: number[] }> {
  const reduced = tf.tidy(() => reduceLogProb(tf.tensor3d(perElement, [BATCH, H, A]), slice));
  try {
    return { values: (await reduced.data()) as Float32Array, shape: [...reduced.shape] };
  } finally {
    reduced.dispose();
  }
}

const SAMPLERS: SamplerOptions[] = [
  { method: 'sde', mode: 'hybrid', steps: 3, level: 0.5 },
  { method: 'sde', mode: 'joint', steps: 3, level: 0.5 },
  { method: 'cps', mode: 'joint', steps: 4, level: 0.6 },
  { method: 'noise', mode: 'hybrid', steps: 3, level: 0, bounds: { stdMin: 0.05, stdMax: 0.3 } },
];

describe('sampling with the log-prob reduced on the device', () => {
  for (const options of SAMPLERS) {
    for (const logprobType of ['token', 'action', 'chunk', 'mean'] as const) {
      test(`${options.method} ${options.mode}, ${logprobType}: equals the per-element download reduced afterwards`, async () => {
        // Ta < H and Ae < A, so the slice matters.
        const slice: LogProbSlice = { logprobType, nActionSteps: 2, envActionDim: 2 };
        const perElement = await sampleActions(policy, { state }, options, createRng(31));
        const reduced = await sampleActions(policy, { state }, options, createRng(31), slice);
        const reference = await twoStepReduced(perElement.logProbs, slice);
        expect(perElement.logProbShape).toEqual([BATCH, H, A]);
        expect(reduced.logProbShape).toEqual(reference.shape);
        expect(bits(reduced.logProbs)).toEqual(bits(reference.values));
        expect(reduced.logProbs.every((value) => Number.isFinite(value) && value !== 0)).toBe(true);
        // Everything else is the same sample.
        expect(bits(reduced.chains)).toEqual(bits(perElement.chains));
        expect(bits(reduced.values)).toEqual(bits(perElement.values));
        expect(bits(reduced.stds)).toEqual(bits(perElement.stds));
        expect(Array.from(reduced.denoiseInds)).toEqual(Array.from(perElement.denoiseInds));
      });
    }
  }

  test('shapes per logprob type; no tensors leak; a bad slice is refused before any draw', async () => {
    const options = SAMPLERS[0];
    const shapes = { token: [BATCH, 2, 3], action: [BATCH, 2], chunk: [BATCH], mean: [BATCH] };
    for (const [logprobType, shape] of Object.entries(shapes) as [LogProbSlice['logprobType'], number[]][]) {
      const result = await sampleActions(policy, { state }, options, createRng(1), { logprobType, nActionSteps: 2, envActionDim: 3 });
      expect(result.logProbShape).toEqual(shape);
      expect(result.logProbs.length).toBe(shape.reduce((product, size) => product * size, 1));
    }
    const before = tf.memory().numTensors;
    for (let repeat = 0; repeat < 3; repeat++) await sampleActions(policy, { state }, options, createRng(repeat), { logprobType: 'action', nActionSteps: 2, envActionDim: 2 });
    expect(tf.memory().numTensors).toBe(before);
    const rng = createRng(8);
    await expect(sampleActions(policy, { state }, options, rng, { logprobType: 'chunk', nActionSteps: H + 1, envActionDim: 2 }))
      .rejects.toMatchObject({ name: 'ConfigError', field: 'policy.n_action_steps' });
    expect(rng.uniform()).toBe(createRng(8).uniform());
    expect(tf.memory().numTensors).toBe(before);
  });
});
