import { beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from './mujoco-types';
import { createNodeShardedEnv, loadMujocoNode } from '../../cli/mujoco-node';
import { collectExpertDemos } from './expert-rollout';
import { VectorEnv } from './vector-env';
import { defaultWorkerCount, ShardedVectorEnv } from './sharded-vector-env';
import type { ShardPort } from './shard-protocol';
import { createRng } from '../random';
import { EnvError } from '../errors';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

const NUM_ENVS = 3;
const SEEDS = [31, 32, 33];
const N_STEPS = 5;

/** Random chunks [numEnvs × N_STEPS × 4], a few out of range to exercise clipping. */
function chunkPlan(): Float32Array[] {
  const rng = createRng(77);
  return Array.from({ length: 12 }, () => new Float32Array(NUM_ENVS * N_STEPS * 4).map(() => (rng.uniform() * 2 - 1) * 1.1));
}

describe('ShardedVectorEnv', () => {
  it('picks one worker per core minus one, at least one, at most numEnvs', () => {
    expect(defaultWorkerCount(8, 4)).toBe(3);
    expect(defaultWorkerCount(8, 1)).toBe(1);
    expect(defaultWorkerCount(2, 16)).toBe(2);
  });

  it('fails pending requests when a worker dies instead of hanging', async () => {
    let fail: (error: Error) => void = () => undefined;
    let terminated = 0;
    const deadPort: ShardPort = {
      postMessage: () => setTimeout(() => fail(new Error('worker crashed')), 0),
      onMessage: () => undefined,
      onError: (handler) => { fail = handler; },
      terminate: () => { terminated++; },
    };
    await expect(ShardedVectorEnv.create({ task: 'reach', numEnvs: 2 }, () => deadPort, { numWorkers: 1, sharedMemory: false }))
      .rejects.toThrow(/env worker 0 failed: worker crashed/);
    expect(terminated).toBe(1);
  });

  it('gives the same results as the single-thread env, with shared memory and with transfer', async () => {
    const plan = chunkPlan();
    const local = new VectorEnv(mj, { task: 'reach', numEnvs: NUM_ENVS, rewardMode: 'dense' });
    const expected: number[][] = [];
    try {
      expected.push([...local.reset(SEEDS)]);
      for (const actions of plan) {
        const chunk = local.stepChunk(actions, N_STEPS, 0.95);
        expected.push([...chunk.obs, ...chunk.finalObs, ...chunk.reward, ...chunk.steps, ...chunk.terminated, ...chunk.truncated, ...chunk.success]);
      }
      expected.push(local.drainEpisodes().map((e) => [e.envIndex, e.seed, e.length, e.episodeReturn, ...e.qpos]).flat());
      expected.push([local.metrics().clippedActions]);
    } finally {
      local.dispose();
    }
    expect(expected[expected.length - 2].length).toBeGreaterThan(0);
    for (const sharedMemory of [true, false]) {
      const sharded = await createNodeShardedEnv({ task: 'reach', numEnvs: NUM_ENVS, rewardMode: 'dense' }, { numWorkers: 2, sharedMemory, maxChunkSteps: 2 });
      try {
        expect(sharded.numWorkers).toBe(2);
        expect(sharded.sharedMemory).toBe(sharedMemory);
        // A worker-side failure comes back as the named error.
        const early = await sharded.step(new Float32Array(NUM_ENVS * 4)).catch((error: unknown) => error as EnvError);
        expect((early as EnvError).name).toBe('EnvError');
        expect((early as EnvError).message).toMatch(/reset\(seeds\) must be called before step/);
        const got: number[][] = [[...(await sharded.reset(SEEDS))]];
        for (const actions of plan) {
          const chunk = await sharded.stepChunk(actions, N_STEPS, 0.95);
          got.push([...chunk.obs, ...chunk.finalObs, ...chunk.reward, ...chunk.steps, ...chunk.terminated, ...chunk.truncated, ...chunk.success]);
        }
        const episodes = (await sharded.drainEpisodes()).sort((a, b) => a.envIndex - b.envIndex);
        got.push(episodes.map((e) => [e.envIndex, e.seed, e.length, e.episodeReturn, ...e.qpos]).flat());
        got.push([(await sharded.metrics()).clippedActions]);
        // Local episodes come in completion order; compare the sorted ones.
        const localEpisodes = expected[expected.length - 2];
        expect(got[got.length - 2].length).toBe(localEpisodes.length);
        expect(got.slice(0, -2)).toEqual(expected.slice(0, -2));
        expect(got[got.length - 1]).toEqual(expected[expected.length - 1]);
        // A NaN action is rejected before any shard steps, naming the global env index.
        const bad = new Float32Array(NUM_ENVS * 4);
        bad[2 * 4 + 3] = Number.NaN;
        await expect(sharded.step(bad)).rejects.toThrow(EnvError);
        await expect(sharded.step(bad)).rejects.toThrow(/env 2/);
        const failure = await sharded.reset([1, 2, 3.5]).catch((error: unknown) => error as EnvError);
        expect((failure as EnvError).envIndex).toBe(2);
        expect((failure as EnvError).message).toMatch(/seed for env 2 must be an integer/);
      } finally {
        await sharded.dispose();
      }
    }
  }, 60_000);
});

describe('InThreadBatchEnv', () => {
  it('wraps the in-thread env with the async interface and identical results', async () => {
    const { InThreadBatchEnv } = await import('./in-thread-batch-env');
    const wrapped = new InThreadBatchEnv(mj, { task: 'lift', numEnvs: 2 });
    const plain = new VectorEnv(mj, { task: 'lift', numEnvs: 2 });
    try {
      expect(wrapped.actionDim).toBe(4);
      expect([...(await wrapped.reset([4, 5]))]).toEqual([...plain.reset([4, 5])]);
      const actions = new Float32Array(2 * 3 * 4).fill(0.25);
      const a = await wrapped.stepChunk(actions, 3, 0.9);
      const b = plain.stepChunk(actions, 3, 0.9);
      expect([...a.obs, ...a.reward]).toEqual([...b.obs, ...b.reward]);
    } finally {
      await wrapped.dispose();
      plain.dispose();
    }
  });

  it('records scripted-expert demos in its workers exactly as collectExpertDemos does in one thread, and stops when told', async () => {
    const expected = collectExpertDemos(mj, { task: 'reach', episodes: 5, seed: 40, noise: 0.2 });
    const env = await createNodeShardedEnv({ task: 'reach', numEnvs: 2 }, { numWorkers: 2 });
    try {
      const progress: number[] = [];
      const demos = await env.recordExpertDemos({ seeds: [40, 41, 42, 43, 44], noise: 0.2, episodesPerRequest: 2, onProgress: (episodes) => progress.push(episodes) });
      expect(demos).toBeDefined();
      // Batches of 2, 2 and 1 episodes, whichever worker finishes first.
      expect(progress.at(-1)).toBe(5);
      expect(progress).toHaveLength(3);
      for (const key of ['obs', 'actions', 'rewards', 'episodeStarts', 'success', 'seeds', 'terminated'] as const) expect([...demos![key]!]).toEqual([...expected[key]!]);
      let requests = 0;
      const stopped = await env.recordExpertDemos({ seeds: [40, 41, 42, 43], noise: 0.2, episodesPerRequest: 1, shouldStop: () => ++requests > 2 });
      expect(stopped).toBeUndefined();
    } finally {
      await env.dispose();
    }
  });
});

