import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { createRng } from '../random';
import { InThreadBatchEnv } from './in-thread-batch-env';
import type { Mujoco } from './mujoco-types';
import { VectorEnv } from './vector-env';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

describe('InThreadBatchEnv', () => {
  it('exposes the sizes and gives the same resets, chunk results, episodes and metrics as the env itself', async () => {
    const direct = new VectorEnv(mj, { task: 'reach', numEnvs: 2, recordEpisodes: false });
    const wrapped = new InThreadBatchEnv(mj, { task: 'reach', numEnvs: 2, recordEpisodes: false });
    try {
      expect(wrapped.numEnvs).toBe(2);
      expect(wrapped.obsDim).toBe(direct.obsDim);
      expect(wrapped.actionDim).toBe(4);
      expect(await wrapped.reset([3, 4])).toEqual(direct.reset([3, 4]));
      const rng = createRng(6);
      // 30 chunks of 2 steps run past reach's 50-step episodes, so episodes finish on the way.
      for (let chunk = 0; chunk < 30; chunk++) {
        const actions = Float32Array.from({ length: 2 * 2 * 4 }, () => 2 * rng.uniform() - 1);
        expect(await wrapped.stepChunk(actions, 2, 0.9)).toEqual(direct.stepChunk(actions, 2, 0.9));
      }
      const episodes = await wrapped.drainEpisodes();
      expect(episodes.length).toBeGreaterThan(0);
      expect(episodes).toEqual(direct.drainEpisodes());
      expect(await wrapped.metrics()).toEqual(direct.metrics());
    } finally {
      direct.dispose();
      await wrapped.dispose();
    }
  });
});
