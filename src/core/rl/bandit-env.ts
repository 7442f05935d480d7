import type { EpisodeRecord } from '../envs/task-env';
import type { VectorChunkResult } from '../envs/vector-env';
import type { ChunkEnv } from './chunk-env';

/**
 * A one-decision task for checking that PPO moves a policy the right way: every episode is one
 * chunk, the observation is constant, and the reward is −mean over executed steps of
 * (a_0 − target)², so the best policy puts the first action dim on `target`.
 */
export function createBanditEnv(numEnvs: number, obsDim: number, actionDim: number, target: number): ChunkEnv {
  let episodes: EpisodeRecord[] = [];
  let envSteps = 0;
  const obs = () => new Float32Array(numEnvs * obsDim).fill(0.5);
  return {
    numEnvs,
    obsDim,
    actionDim,
    reset: async () => obs(),
    stepChunk: async (actions, nSteps): Promise<VectorChunkResult> => {
      const reward = new Float32Array(numEnvs);
      for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
        let squaredError = 0;
        for (let step = 0; step < nSteps; step++) squaredError += (actions[(envIndex * nSteps + step) * actionDim] - target) ** 2;
        reward[envIndex] = -squaredError / nSteps;
        episodes.push({ envIndex, seed: 0, episodeReturn: reward[envIndex], length: 1, success: reward[envIndex] > -0.01, nq: 0, qpos: new Float32Array(0), goal: [0, 0, 0] });
      }
      envSteps += numEnvs;
      const done = new Uint8Array(numEnvs).fill(1);
      return { obs: obs(), reward, terminated: done, truncated: new Uint8Array(numEnvs), success: new Uint8Array(numEnvs), finalObs: obs(), steps: new Int32Array(numEnvs).fill(1) };
    },
    drainEpisodes: async () => {
      const drained = episodes;
      episodes = [];
      return drained;
    },
    metrics: async () => ({ clippedActions: 0, unstableResets: 0, envSteps }),
    dispose: () => undefined,
  };
}
