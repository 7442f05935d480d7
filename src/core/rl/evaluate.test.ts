import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import type { EpisodeRecord } from '../envs/task-env';
import type { VectorChunkResult } from '../envs/vector-env';
import type { Mujoco } from '../envs/mujoco-types';
import { createRng } from '../random';
import type { BatchEnv } from '../envs/batch-env';
import { evalSeeds, evaluatePolicy } from './evaluate';
import { freshBundle, openChunkEnv, stepObsEndingIn, tinyConfig } from './fixtures/test-support';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});

/**
 * A scripted batch: env e finishes an episode every `lengths[e]` chunks; episode n of env e
 * has return 10·e + n and succeeds when n is even. Every chunk runs all its steps.
 */
function scriptedEnv(lengths: number[], obsDim = 10, actionDim = 4): BatchEnv & { chunkCalls: number } {
  const numEnvs = lengths.length;
  const chunksRun = new Array<number>(numEnvs).fill(0);
  const episodesDone = new Array<number>(numEnvs).fill(0);
  let pending: EpisodeRecord[] = [];
  const obs = () => Float32Array.from({ length: numEnvs * obsDim }, (_, index) => Math.cos(index + chunksRun[0]));
  const env = {
    numEnvs,
    obsDim,
    actionDim,
    chunkCalls: 0,
    reset: async () => {
      chunksRun.fill(0);
      episodesDone.fill(0);
      pending = [];
      return obs();
    },
    stepChunk: async (actions: Float32Array, nSteps: number): Promise<VectorChunkResult> => {
      expect(actions.length).toBe(numEnvs * nSteps * actionDim);
      env.chunkCalls++;
      const truncated = new Uint8Array(numEnvs);
      for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
        chunksRun[envIndex]++;
        if (chunksRun[envIndex] % lengths[envIndex] !== 0) continue;
        const episode = episodesDone[envIndex]++;
        truncated[envIndex] = 1;
        const record = { envIndex, seed: 0, episodeReturn: 10 * envIndex + episode, length: lengths[envIndex] * nSteps, success: episode % 2 === 0, nq: 0, mocapPos: [], qpos: new Float32Array(0) };
        pending.push(record as EpisodeRecord);
      }
      const next = obs();
      const steps = new Int32Array(numEnvs).fill(nSteps);
      return { obs: next, finalObs: next, reward: new Float32Array(numEnvs), terminated: new Uint8Array(numEnvs), truncated, success: new Uint8Array(numEnvs), steps, stepObs: stepObsEndingIn(next, steps, nSteps) };
    },
    drainEpisodes: async () => {
      const out = pending;
      pending = [];
      return out;
    },
    metrics: async () => ({ clippedActions: 0, unstableResets: 0, envSteps: 0 }),
    snapshot: async () => {
      throw new Error('a scripted env has no physics to snapshot');
    },
    restore: async () => undefined,
    dispose: async () => undefined,
  };
  return env;
}

describe('evaluatePolicy', () => {
  it('counts exactly the first episode of each env, however many the fast envs finish meanwhile', async () => {
    const config = tinyConfig();
    const bundle = freshBundle(config, 10, 4);
    try {
      // Env 0 finishes every chunk, env 1 every 2, env 2 only after 5 chunks.
      const env = scriptedEnv([1, 2, 5]);
      const summary = await evaluatePolicy(bundle, env, config, [7, 8, 9], createRng(1));
      expect(env.chunkCalls).toBe(5);
      expect(summary.episodes).toBe(3);
      expect(summary.records.map((record) => record.envIndex)).toEqual([0, 1, 2]);
      // First episodes only: returns 0, 10, 20 (later ones would be 1..4 and 11, 12), all successes.
      expect(summary.records.map((record) => record.episodeReturn)).toEqual([0, 10, 20]);
      expect(summary.meanReturn).toBe(10);
      expect(summary.successRate).toBe(1);
      // Lengths 1·2, 2·2, 5·2 env steps: mean 16/3.
      expect(summary.meanLength).toBeCloseTo(16 / 3, 12);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('needs one env per seed', async () => {
    const config = tinyConfig();
    const bundle = freshBundle(config, 10, 4);
    try {
      await expect(evaluatePolicy(bundle, scriptedEnv([1, 1]), config, [1, 2, 3], createRng(1))).rejects.toThrow(/evaluation needs one env per seed: 3 seeds for 2 envs/);
    } finally {
      bundle.policy.dispose();
    }
  });

  describe('on real reach envs', () => {
    let env: BatchEnv;
    beforeAll(() => {
      env = openChunkEnv(mj, tinyConfig(), 3);
    });
    afterAll(async () => {
      await env.dispose();
    });

    it('is deterministic for fixed seeds, one episode per env, and leaks no tensors', async () => {
      const config = tinyConfig();
      const bundle = freshBundle(config, env.obsDim, env.actionDim, 7);
      try {
        const seeds = evalSeeds(config, 3);
        expect(seeds).toEqual([1_000_000, 1_000_001, 1_000_002]);
        const first = await evaluatePolicy(bundle, env, config, seeds, createRng(1));
        const tensors = tf.memory().numTensors;
        // Same env seeds and the same RNG seed (which draws each chain's x_0): the same evaluation.
        const second = await evaluatePolicy(bundle, env, config, seeds, createRng(1));
        expect(tf.memory().numTensors).toBe(tensors);
        expect(second).toEqual(first);
        expect(first.episodes).toBe(3);
        expect(first.records.map((record) => record.envIndex)).toEqual([0, 1, 2]);
        expect(first.records.map((record) => record.seed)).toEqual(seeds);
        // reach caps episodes at 50 env steps.
        for (const record of first.records) expect(record.length).toBeLessThanOrEqual(50);
        const mean = first.records.reduce((sum, record) => sum + record.episodeReturn, 0) / 3;
        expect(first.meanReturn).toBeCloseTo(mean, 10);
        const other = await evaluatePolicy(bundle, env, config, [5, 6, 7], createRng(1));
        expect(other.records.map((record) => record.episodeReturn)).not.toEqual(first.records.map((record) => record.episodeReturn));
      } finally {
        bundle.policy.dispose();
      }
    });
  });
});
