import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import type { ValueOn } from '../policy/options';
import { createRng } from '../random';
import { sampleActions } from './sampler';
import { policyValues, valuePass } from './value-pass';

const [H, A, OBS, BATCH] = [4, 3, 5, 6];

beforeAll(async () => {
  await useNodeBackend('wasm');
});

function freshPolicy(valueOn: ValueOn, seed: number): FlowPolicy {
  return new FlowPolicy({ obsDim: OBS, horizon: H, actionDim: A, velocityHidden: [16, 16, 12], encoderHidden: [8], valueHidden: [8], noiseHidden: [8], valueOn }, seed);
}

/** Bit patterns, so the comparison is exact (−0 and NaN included). */
function bits(values: Float32Array): number[] {
  return Array.from(new Uint32Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)));
}

describe('value-only pass', () => {
  for (const valueOn of ['obs', 'expert'] as const) {
    for (const [steps, denoisedClamp] of [[1, 0], [3, 0], [3, 0.3]]) {
      test(`value_on ${valueOn}, K = ${steps}, denoised clamp ${denoisedClamp}: bit-identical to the eval sampler's values`, async () => {
        const policy = freshPolicy(valueOn, 11 + steps);
        const state = tf.tensor2d(createRng(3).fillNormal(new Float32Array(BATCH * OBS)), [BATCH, OBS]);
        try {
          // The old bootstrap path: a whole eval chain, of which only the values were kept.
          const oldRng = createRng(40);
          const old = await sampleActions(policy, { state }, { method: 'ode', mode: 'eval', steps, level: 0, denoisedClamp }, oldRng);
          const rng = createRng(40);
          const values = await policyValues(policy, { state }, steps, rng, denoisedClamp);
          expect(values.length).toBe(BATCH);
          expect(bits(values)).toEqual(bits(old.values));
          expect(values.every(Number.isFinite)).toBe(true);
          // expert draws the sampler's x_0, so the stream continues where the old path left it; obs draws nothing.
          const reference = valueOn === 'expert' ? oldRng : createRng(40);
          expect(rng.uniform()).toBe(reference.uniform());
        } finally {
          state.dispose();
          policy.dispose();
        }
      });
    }
  }

  test('value_on obs is the value head on the encoder features; expert depends on x_0', async () => {
    const obsPolicy = freshPolicy('obs', 2);
    const expertPolicy = freshPolicy('expert', 2);
    const state = tf.tensor2d(createRng(5).fillNormal(new Float32Array(BATCH * OBS)), [BATCH, OBS]);
    try {
      const direct = tf.tidy(() => obsPolicy.value(obsPolicy.encode({ state })));
      const viaPass = tf.tidy(() => valuePass(obsPolicy, { state }, 3));
      expect(bits((await viaPass.data()) as Float32Array)).toEqual(bits((await direct.data()) as Float32Array));
      tf.dispose([direct, viaPass]);
      const first = await policyValues(expertPolicy, { state }, 3, createRng(1));
      const second = await policyValues(expertPolicy, { state }, 3, createRng(2));
      expect(bits(second)).not.toEqual(bits(first));
    } finally {
      state.dispose();
      obsPolicy.dispose();
      expertPolicy.dispose();
    }
  });

  test('leaks no tensors, and names bad inputs', async () => {
    const policy = freshPolicy('expert', 4);
    const state = tf.tensor2d(new Float32Array(BATCH * OBS), [BATCH, OBS]);
    try {
      await policyValues(policy, { state }, 3, createRng(1));
      const before = tf.memory().numTensors;
      for (let repeat = 0; repeat < 3; repeat++) await policyValues(policy, { state }, 3, createRng(repeat));
      expect(tf.memory().numTensors).toBe(before);
      expect(() => tf.tidy(() => valuePass(policy, { state }, 3))).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'x0' }));
      await expect(policyValues(policy, { state }, 0, createRng(1))).rejects.toMatchObject({ name: 'ConfigError', field: 'policy.denoise_steps' });
      expect(tf.memory().numTensors).toBe(before);
    } finally {
      state.dispose();
      policy.dispose();
    }
  });
});
