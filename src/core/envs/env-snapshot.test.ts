import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeShardedEnv, loadMujocoNode } from '../../cli/mujoco-node';
import { EnvError } from '../errors';
import { createRng } from '../random';
import type { BatchEnv } from './batch-env';
import { InThreadBatchEnv } from './in-thread-batch-env';
import type { Mujoco } from './mujoco-types';
import type { VectorChunkResult } from './vector-env';
import type { VectorEnvConfig } from './vector-env-config';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

const N_STEPS = 4;

/** Random chunks, some out of range so the clipped-action counter moves too. */
function chunkPlan(numEnvs: number, count: number, seed: number): Float32Array[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => new Float32Array(numEnvs * N_STEPS * 4).map(() => (rng.uniform() * 2 - 1) * 1.2));
}

async function runChunks(env: BatchEnv, plan: readonly Float32Array[]): Promise<VectorChunkResult[]> {
  const results: VectorChunkResult[] = [];
  for (const actions of plan) results.push(await env.stepChunk(actions, N_STEPS, 0.99));
  return results;
}

/**
 * Steps a batch part-way into its episodes, snapshots it, steps on; then a second batch
 * restored from the snapshot steps the same actions. Every result, finished episode and
 * counter must match bit for bit, across episode ends (the per-env seed streams).
 */
async function expectExactContinuation(open: () => Promise<BatchEnv>, config: VectorEnvConfig): Promise<void> {
  const before = chunkPlan(config.numEnvs, 7, 5);
  // pick-cube episodes are 100 steps: 30 chunks of 4 run past an episode end in every env.
  const after = chunkPlan(config.numEnvs, 30, 6);
  const original = await open();
  const resumed = await open();
  try {
    await original.reset(Array.from({ length: config.numEnvs }, (_, envIndex) => 40 + envIndex));
    await runChunks(original, before);
    await original.drainEpisodes();
    const snapshot = await original.snapshot();
    const expected = await runChunks(original, after);
    const expectedEpisodes = await original.drainEpisodes();
    expect(expectedEpisodes.length).toBeGreaterThanOrEqual(config.numEnvs);

    // The restored batch was reset with other seeds: nothing of that may leak through.
    await resumed.reset(Array.from({ length: config.numEnvs }, (_, envIndex) => 900 + envIndex));
    await resumed.restore(structuredClone(snapshot));
    expect(await runChunks(resumed, after)).toEqual(expected);
    expect(await resumed.drainEpisodes()).toEqual(expectedEpisodes);
    expect(await resumed.metrics()).toEqual(await original.metrics());
  } finally {
    await original.dispose();
    await resumed.dispose();
  }
}

describe('env snapshots', () => {
  it('an in-thread batch restored from a snapshot continues exactly, qpos and obs recordings included', async () => {
    const config: VectorEnvConfig = { task: 'pick-cube', numEnvs: 3, recordEpisodes: true };
    await expectExactContinuation(async () => new InThreadBatchEnv(mj, config), config);
  }, 60_000);

  it('a worker-sharded batch restored from a snapshot continues exactly', async () => {
    const config: VectorEnvConfig = { task: 'lift', numEnvs: 3, recordEpisodes: false };
    await expectExactContinuation(() => createNodeShardedEnv(config, { numWorkers: 2 }), config);
  }, 120_000);

  it('refuses a snapshot of another batch size, and one taken with undrained episodes', async () => {
    const three = new InThreadBatchEnv(mj, { task: 'reach', numEnvs: 3, recordEpisodes: false });
    const two = new InThreadBatchEnv(mj, { task: 'reach', numEnvs: 2, recordEpisodes: false });
    try {
      await three.reset([1, 2, 3]);
      await two.reset([1, 2]);
      await expect(two.restore(await three.snapshot())).rejects.toThrow(/saved env state is for 3 envs .*this batch has 2 envs/);
      // reach episodes end after 50 steps: 13 chunks of 4 finish one in every env.
      await runChunks(three, chunkPlan(3, 13, 1));
      const failure = await three.snapshot().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(EnvError);
      expect((failure as Error).message).toMatch(/undrained episodes/);
    } finally {
      await three.dispose();
      await two.dispose();
    }
  });
});
