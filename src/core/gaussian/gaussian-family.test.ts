import * as tf from '@tensorflow/tfjs';
import * as ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';

import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { applyOverrides, presetConfig, type RunConfig } from '../config';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { CheckpointError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import { decodeGaussianCheckpoint as decodeFile } from './gaussian-checkpoint';
import { exportGaussianOnnx, GAUSSIAN_ONNX_IO } from './gaussian-onnx';
import { createRng } from '../random';
import { bitsOf } from '../rl/fixtures/test-support';
import { gaussianActor, gaussianBundle } from './gaussian-family';
import { openRun } from '../run/open-run';
import type { RunPorts } from '../run/run-ports';
import { parseCheckpointFile } from '../checkpoint/checkpoint-file';
import { decodePolicyCheckpoint } from '../checkpoint/fixtures/decode-bytes';

/** A Gaussian checkpoint's bytes decoded for a run on `task` with the given env sizes. */
function decodeGaussianCheckpoint(bytes: Uint8Array, expected: { task: string; obsDim: number; actionDim: number }) {
  return decodeFile(parseCheckpointFile({ kind: 'flowtune', name: 'checkpoint', bytes }, { expectedTask: expected.task }), expected);
}

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});

const ports = (): RunPorts => ({ openEnv: async (config) => new InThreadBatchEnv(mj, config), clock: () => 0 });

/** CleanRL's settings at a test's size: hopper, 2 envs × 32 steps, minibatches of 16. */
function smallConfig(overrides: readonly string[] = []): RunConfig {
  return applyOverrides(presetConfig('gaussian-ppo'), [
    'task=hopper', 'num_envs=2', 'env.steps_per_iteration=32', 'ppo.minibatch_size=16', 'ppo.epochs=2', 'total_env_steps=256',
    'env.max_episode_steps=20', 'eval_episodes=2', 'eval.every=2', 'checkpoint_every=0', ...overrides,
  ]);
}

async function weightBits(bytes: Uint8Array, config: RunConfig): Promise<Map<string, number[]>> {
  const checkpoint = decodeGaussianCheckpoint(bytes, { task: config.task, obsDim: 11, actionDim: 3 });
  return new Map([...checkpoint.tensors].map(([name, entry]) => [name, [...bitsOf(entry.data)]]));
}

async function train(config: RunConfig, from: Uint8Array | undefined, iterations: number) {
  const checkpoint = from ? decodeGaussianCheckpoint(from, { task: config.task, obsDim: 11, actionDim: 3 }) : undefined;
  const opened = await openRun(config, checkpoint, ports());
  try {
    const records: MetricRecord[] = [];
    for (let step = 0; step < iterations; step++) records.push(await opened.run.step());
    return { records, history: [...opened.run.history], saved: encodeFlowtune(await opened.run.contents()), notes: opened.notes };
  } finally {
    await opened.close();
  }
}

describe('the Gaussian family on the one Run', () => {
  it('resumes exactly: 4 iterations straight equal 2, save, resume, 2 (metrics, history, weights, obs and reward stats)', async () => {
    const config = smallConfig();
    const straight = await train(config, undefined, 4);
    const firstHalf = await train(config, undefined, 2);
    const secondHalf = await train(config, firstHalf.saved, 2);
    expect(secondHalf.notes).toEqual([]);
    expect(secondHalf.records).toEqual(straight.records.slice(2));
    expect(secondHalf.history).toEqual(straight.history);
    expect(await weightBits(secondHalf.saved, config)).toEqual(await weightBits(straight.saved, config));
    // Not vacuous: episodes of at most 20 steps ended in every iteration, and the policy moved.
    expect(straight.records.every((record) => Number(record['charts/episode_length']) > 0)).toBe(true);
    expect(await weightBits(firstHalf.saved, config)).not.toEqual(await weightBits(straight.saved, config));
    expect(straight.records[3]['progress/env_steps']).toBe(256);
  }, 120_000);

  it('a save made mid-rollout (a pause in the studio) resumes from the start of that iteration exactly, running stats included', async () => {
    const config = smallConfig();
    const straight = await train(config, undefined, 4);
    let decisions = 0;
    let midRollout: Uint8Array | undefined;
    const holder: { run?: Awaited<ReturnType<typeof openRun>>['run'] } = {};
    const opened = await openRun(config, undefined, {
      ...ports(),
      pauseGate: async (where) => {
        // 32 decisions an iteration: the 80th is the 16th of iteration 3, after the obs and reward stats moved in it.
        if (where === 'decision' && ++decisions === 80) midRollout = encodeFlowtune(await holder.run!.contents());
      },
    });
    holder.run = opened.run;
    try {
      for (let step = 0; step < 3; step++) await opened.run.step();
    } finally {
      await opened.close();
    }
    expect(midRollout).toBeDefined();
    const resumed = await train(config, midRollout, 2);
    expect(resumed.notes).toEqual([]);
    expect(resumed.records).toEqual(straight.records.slice(2));
    expect(await weightBits(resumed.saved, config)).toEqual(await weightBits(straight.saved, config));
  }, 120_000);

  it('learns: on hopper the mean training return of the 4th 2048-step iteration is at least twice the 1st\'s', async () => {
    // CleanRL's own settings; a fresh policy falls at once (return ≈ 15), and 8k steps of PPO make it hop forward.
    const config = applyOverrides(presetConfig('gaussian-ppo'), ['task=hopper', 'total_env_steps=8192', 'eval_episodes=0', 'eval.every=0', 'checkpoint_every=0']);
    const { records } = await train(config, undefined, 4);
    const first = Number(records[0]['charts/episode_return']);
    const last = Number(records[3]['charts/episode_return']);
    expect(last).toBeGreaterThan(2 * first);
  }, 180_000);

  it('exports its mean action to ONNX, which onnxruntime runs to the tfjs policy\'s actions within 1e-5', async () => {
    const config = smallConfig();
    const { saved } = await train(config, undefined, 2);
    const checkpoint = decodeGaussianCheckpoint(saved, { task: 'hopper', obsDim: 11, actionDim: 3 });
    const bundle = gaussianBundle(config, 11, 3, checkpoint);
    try {
      const rng = createRng(8);
      const obs = Float32Array.from({ length: 5 * 11 }, () => 2 * rng.normal());
      const expected = await gaussianActor(bundle).act(obs, 5, rng);
      const session = await ort.InferenceSession.create(await exportGaussianOnnx(bundle, checkpoint.metadata));
      const outputs = await session.run({ [GAUSSIAN_ONNX_IO.obs]: new ort.Tensor('float32', obs, [5, 1, 11]) });
      const actions = outputs[GAUSSIAN_ONNX_IO.actions];
      expect(actions.dims).toEqual([5, 1, 3]);
      const data = actions.data as Float32Array;
      expect(Math.max(...Array.from(data, (value, index) => Math.abs(value - expected[index])))).toBeLessThan(1e-5);
      // The stats are not the identity, so the graph's normalization is exercised.
      expect(bundle.obsScaler.stats.count).toBeGreaterThan(100);
    } finally {
      bundle.policy.dispose();
    }
  }, 60_000);

  it('a flow-policy reader refuses a Gaussian checkpoint with one sentence', async () => {
    const { saved } = await train(smallConfig(['total_env_steps=64']), undefined, 1);
    expect(() => decodePolicyCheckpoint(saved)).toThrow(CheckpointError);
    expect(() => decodePolicyCheckpoint(saved)).toThrow('checkpoint holds a gaussian policy, not a flow or diffusion policy');
    expect(tf.memory().numTensors).toBeLessThan(1000);
  }, 60_000);
});
