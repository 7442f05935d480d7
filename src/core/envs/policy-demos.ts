/**
 * Demonstrations from a learned policy instead of a scripted expert (DESIGN.md §14: the "medium"
 * dataset of ReinFlow's locomotion recipe, made as D4RL's medium sets are). `numEnvs` envs step
 * side by side; each finished episode is stored whole, in the order episodes end, until at least
 * `steps` transitions are stored. The stored action is the one the env ran (clipped to [-1, 1]).
 */
import { ShapeError } from '../errors';
import type { Demonstrations } from './expert-rollout';
import type { Mujoco } from './mujoco-types';
import type { TaskName } from './task-types';
import { VectorEnv } from './vector-env';

export interface PolicyDemoOptions {
  task: TaskName;
  /** Transitions to collect at least (whole episodes). */
  steps: number;
  /** Envs reset with seed, seed + 1, …; later episodes draw their seeds from each env's stream. */
  seed: number;
  numEnvs: number;
  /** The policy: observations [numEnvs × obsDim] → actions [numEnvs × actionDim] in env units. */
  act(obs: Float32Array): Promise<Float32Array>;
  /** Called after each stored episode with the transitions stored so far. */
  onEpisode?: (stored: number, episodeReturn: number) => void;
}

export async function collectPolicyDemos(mj: Mujoco, options: PolicyDemoOptions): Promise<Demonstrations> {
  if (!(options.steps >= 1 && options.numEnvs >= 1)) throw new ShapeError('steps', `policy demos need steps ≥ 1 and numEnvs ≥ 1, got ${options.steps} and ${options.numEnvs}`);
  const env = new VectorEnv(mj, { task: options.task, numEnvs: options.numEnvs, obsMode: 'state', recordEpisodes: false });
  try {
    const { obsSpec, actionDim } = env.config;
    const obsDim = obsSpec.dim;
    // Each env's rows of its episode in progress.
    const pending = Array.from({ length: options.numEnvs }, () => ({ obs: [] as number[], actions: [] as number[], rewards: [] as number[] }));
    const episodes: { obs: number[]; actions: number[]; rewards: number[]; seed: number; success: boolean; terminated: boolean }[] = [];
    let stored = 0;
    let obs = env.reset(Array.from({ length: options.numEnvs }, (_, envIndex) => options.seed + envIndex));
    while (stored < options.steps) {
      const actions = await options.act(obs);
      const clipped = actions.map((value) => Math.min(1, Math.max(-1, value)));
      const result = env.step(clipped);
      for (let envIndex = 0; envIndex < options.numEnvs; envIndex++) {
        const rows = pending[envIndex];
        rows.obs.push(...obs.subarray(envIndex * obsDim, (envIndex + 1) * obsDim));
        rows.actions.push(...clipped.subarray(envIndex * actionDim, (envIndex + 1) * actionDim));
        rows.rewards.push(result.reward[envIndex]);
      }
      for (const record of env.drainEpisodes()) {
        const rows = pending[record.envIndex];
        if (stored < options.steps) {
          episodes.push({ ...rows, seed: record.seed, success: record.success, terminated: result.terminated[record.envIndex] !== 0 });
          stored += rows.rewards.length;
          options.onEpisode?.(stored, record.episodeReturn);
        }
        pending[record.envIndex] = { obs: [], actions: [], rewards: [] };
      }
      obs = result.obs;
    }
    const starts = [0];
    for (const episode of episodes) starts.push(starts[starts.length - 1] + episode.rewards.length);
    return {
      task: options.task, obsMode: 'state', obsDim, actionDim,
      obs: Float32Array.from(episodes.flatMap((episode) => episode.obs)),
      actions: Float32Array.from(episodes.flatMap((episode) => episode.actions)),
      rewards: Float32Array.from(episodes.flatMap((episode) => episode.rewards)),
      episodeStarts: Int32Array.from(starts),
      success: Uint8Array.from(episodes.map((episode) => (episode.success ? 1 : 0))),
      seeds: Int32Array.from(episodes.map((episode) => episode.seed)),
      terminated: Uint8Array.from(episodes.map((episode) => (episode.terminated ? 1 : 0))),
    };
  } finally {
    env.dispose();
  }
}
