import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { CheckpointError } from '../errors';
import { pretrainPolicy } from './pretrain';
import { freshBundle, syntheticBcDataset, tinyConfig } from './fixtures/test-support';
import { readTfAdam, restoreTfAdam, type TfAdamState } from './tf-adam-state';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const config = tinyConfig(['policy.n_obs_steps=1']);
const f32bits = (value: number) => new Uint32Array(Float32Array.of(value).buffer)[0];

/** The optimizer state after `steps` BC steps of a tiny policy. */
async function trainedState(steps: number): Promise<TfAdamState> {
  const { policy } = freshBundle(config, 3, 2, 5);
  let state: TfAdamState | undefined;
  try {
    await pretrainPolicy(policy, syntheticBcDataset(config.policy.horizon, 48), {
      steps, batchSize: 16, learningRate: 3e-3, emaDecay: 0, shortcutFraction: 0.25, seed: 8,
      afterStep: async (step, _averaged, read) => { if (step === steps) state = (await read()).optimizer; },
    });
  } finally {
    policy.dispose();
  }
  return state!;
}

describe('tfjs Adam state', () => {
  it("is read back unchanged from a fresh optimizer it was restored into, the running β powers to the bit", async () => {
    const state = await trainedState(40);
    expect(state.iterations).toBe(40);
    // The running powers are float32 products of 41 factors: 0.999^41 ≈ 0.95984 and 0.9^41 ≈ 0.013303.
    expect(state.accBeta2).toBeCloseTo(0.999 ** 41, 5);
    expect(state.accBeta1).toBeCloseTo(0.9 ** 41, 6);
    // tfjs's own setWeights puts pow(β, t + 1) there instead, which is not the product's float32 value.
    const pow = tf.pow(0.999, 41);
    expect(f32bits((await pow.data())[0])).not.toBe(f32bits(state.accBeta2));
    pow.dispose();
    const { policy } = freshBundle(config, 3, 2, 5);
    const optimizer = tf.train.adam(3e-3);
    try {
      await restoreTfAdam(optimizer, policy, state);
      const back = await readTfAdam(optimizer, policy);
      expect(f32bits(back.accBeta1)).toBe(f32bits(state.accBeta1));
      expect(f32bits(back.accBeta2)).toBe(f32bits(state.accBeta2));
      expect(back.iterations).toBe(40);
      expect(back.slots.map((slot) => slot.name)).toEqual(policy.bcVariables().map(([name]) => name));
      expect(back.slots).toEqual(state.slots);
    } finally {
      optimizer.dispose();
      policy.dispose();
    }
  }, 60_000);

  it('refuses a state that lacks a parameter BC trains, or holds one of another size', async () => {
    const state = await trainedState(2);
    const { policy } = freshBundle(config, 3, 2, 5);
    const optimizer = tf.train.adam(3e-3);
    try {
      const [first, ...rest] = state.slots;
      await expect(restoreTfAdam(optimizer, policy, { ...state, slots: rest })).rejects.toThrow(new CheckpointError(`BC optimizer state has no moments for '${first.name}'`));
      const short = { ...first, m: first.m.subarray(1), v: first.v.subarray(1) };
      await expect(restoreTfAdam(optimizer, policy, { ...state, slots: [short, ...rest] }))
        .rejects.toThrow(`BC optimizer state for '${first.name}' holds ${first.m.length - 1} values, but the parameter has ${first.m.length}`);
    } finally {
      optimizer.dispose();
      policy.dispose();
    }
  }, 60_000);
});
