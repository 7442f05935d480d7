import { beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from './mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { VectorEnv } from './vector-env';
import type { VectorEnvConfig } from './vector-env-config';
import { withVectorEnv } from './fixtures/with-vector-env';
import { createRng } from '../random';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

function withEnv<T>(config: VectorEnvConfig, body: (env: VectorEnv) => T): T {
  return withVectorEnv(mj, config, body);
}

/** Row `frame` of a row-major [frames, dim] array, as plain numbers. */
function row(values: Float32Array, frame: number, dim: number): number[] {
  return Array.from(values.subarray(frame * dim, (frame + 1) * dim));
}

describe('TaskEnv episode observations', () => {
  it('records the reset obs as row 0 and each step obs as the next row, ending with the final obs before auto-reset', () => {
    const cap = 6;
    withEnv({ task: 'lift', numEnvs: 2, maxEpisodeSteps: cap }, (env) => {
      const obsDim = env.obsDim;
      const rng = createRng(Math.floor(Math.random() * 2 ** 31));
      const seen: number[][][] = [[], []];
      const resetObs = env.reset([11, 12]);
      for (let envIndex = 0; envIndex < 2; envIndex++) seen[envIndex].push(row(resetObs, envIndex, obsDim));
      // Random actions in [-1, 1]; standing short of success, both envs truncate at the cap.
      for (let stepIndex = 0; stepIndex < cap; stepIndex++) {
        const actions = new Float32Array(2 * env.config.actionDim).map(() => 2 * rng.uniform() - 1);
        const result = env.step(actions);
        for (let envIndex = 0; envIndex < 2; envIndex++) seen[envIndex].push(row(result.finalObs, envIndex, obsDim));
        if (stepIndex === cap - 1) {
          // After the done, obs holds the next episode's reset obs, which must not be in the record.
          expect(row(result.obs, 0, obsDim)).not.toEqual(row(result.finalObs, 0, obsDim));
        }
      }
      const episodes = env.drainEpisodes();
      expect(episodes.map((episode) => episode.length)).toEqual([cap, cap]);
      for (const episode of episodes) {
        const obs = episode.obs!;
        expect(obs.length).toBe((cap + 1) * obsDim);
        for (let frame = 0; frame <= cap; frame++) expect(row(obs, frame, obsDim)).toEqual(seen[episode.envIndex][frame]);
      }
    });
  });

  it('records chunked episodes that end early, row for row', () => {
    withEnv({ task: 'lift', numEnvs: 1, maxEpisodeSteps: 5 }, (env) => {
      const obsDim = env.obsDim;
      const dim = env.config.actionDim;
      const rows = [row(env.reset([3]), 0, obsDim)];
      // Chunks of 2 steps: 2 + 2 + 1 (the cap ends the third chunk after its first step).
      for (let chunk = 0; chunk < 3; chunk++) {
        const result = env.stepChunk(new Float32Array(2 * dim).fill(0.5), 2, 1);
        rows.push(...Array.from({ length: result.steps[0] - 1 }, () => [] as number[]), row(result.finalObs, 0, obsDim));
      }
      const [episode] = env.drainEpisodes();
      expect(episode.length).toBe(5);
      const obs = episode.obs!;
      expect(obs.length).toBe(6 * obsDim);
      // The chunk boundaries (frames 0, 2, 4, 5) are the obs the env returned there.
      for (const frame of [0, 2, 4, 5]) expect(row(obs, frame, obsDim)).toEqual(rows[frame]);
      // Every frame is a real observation: joint_qpos (the first 7 dims) matches the recorded qpos.
      for (let frame = 0; frame <= 5; frame++) {
        const joints = row(episode.qpos, frame, episode.nq).slice(0, 7);
        expect(row(obs, frame, obsDim).slice(0, 7)).toEqual(joints);
      }
    });
  });

  it('keeps no observations when recording is off', () => {
    withEnv({ task: 'reach', numEnvs: 1, maxEpisodeSteps: 2, recordEpisodes: false }, (env) => {
      env.reset([1]);
      env.step(new Float32Array(env.config.actionDim));
      env.step(new Float32Array(env.config.actionDim));
      const [episode] = env.drainEpisodes();
      expect(episode.obs!.length).toBe(0);
      expect(episode.qpos.length).toBe(0);
    });
  });
});
