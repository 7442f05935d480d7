/**
 * Runs a task's scripted expert for whole episodes and collects the
 * demonstration (observations, actions, boundaries, success). Episode e uses
 * reset seed `seed + e`; the expert's noise stream is seeded from it too.
 */
import { ShapeError, TaskError } from '../errors';
import { createRng } from '../random';
import type { Mujoco } from './mujoco-types';
import { VectorEnv } from './vector-env';
import { getTask } from './task-registry';
import type { ObsMode, TaskName } from './task-types';

export interface ExpertRolloutOptions {
  task: TaskName;
  episodes: number;
  seed: number;
  noise: number;
  /** Reset seeds of the episodes, in order; default seed, seed + 1, … (`episodes` of them). */
  seeds?: readonly number[];
  obsMode?: ObsMode;
  numPoints?: number;
  /** depth_pointcloud: camera names (comma-separated; 'default': the scene's first) and image side. */
  cameras?: string;
  imageSize?: number;
  /** Called after each episode with (episodeIndex, success, unstable: the physics went unstable and ended it). */
  onEpisode?: (episodeIndex: number, success: boolean, unstable: boolean) => void;
}

export interface Demonstrations {
  task: TaskName;
  obsMode: ObsMode;
  obsDim: number;
  actionDim: number;
  /** [T, obsDim] observation before each action. */
  obs: Float32Array;
  /** [T, actionDim] */
  actions: Float32Array;
  /** [T] */
  rewards: Float32Array;
  /** [E + 1] start row of each episode, last entry T. */
  episodeStarts: Int32Array;
  /** [E] 1 if the episode succeeded. */
  success: Uint8Array;
  /** [E] reset seed of each episode; -1 where it is not known (an imported dataset). */
  seeds: Int32Array;
  /**
   * [E] how each episode ended: 1 terminated (a fall, or the task's own end), 0 truncated (the
   * time limit, or the data ran out mid-episode). Absent in sets recorded before it was kept.
   */
  terminated?: Uint8Array;
}

/** The task's scripted expert; a TaskError when the task has none. */
export function taskExpert(taskName: TaskName): NonNullable<ReturnType<typeof getTask>['expert']> {
  const expert = getTask(taskName).expert;
  if (!expert) throw new TaskError(`task '${taskName}' has no scripted expert, so it makes no demos; train it from a fresh policy, or record demos another way`);
  return expert;
}

export function collectExpertDemos(mj: Mujoco, options: ExpertRolloutOptions): Demonstrations {
  const expertSpec = taskExpert(options.task);
  const env = new VectorEnv(mj, { task: options.task, numEnvs: 1, obsMode: options.obsMode ?? 'state', numPoints: options.numPoints, cameras: options.cameras, imageSize: options.imageSize, recordEpisodes: false, controlMode: expertSpec.control });
  try {
    const { obsSpec, actionDim } = env.config;
    const obsRows: Float32Array[] = [];
    const actionRows: Float32Array[] = [];
    const rewards: number[] = [];
    const episodeStarts = [0];
    const success: number[] = [];
    const seeds: number[] = [];
    const terminated: number[] = [];
    const episodeSeeds = options.seeds ?? Array.from({ length: options.episodes }, (_, episodeIndex) => options.seed + episodeIndex);
    for (let episodeIndex = 0; episodeIndex < episodeSeeds.length; episodeIndex++) {
      const seed = episodeSeeds[episodeIndex];
      const expert = expertSpec.create(options.noise, createRng((seed * 7919 + 17) >>> 0));
      expert.reset();
      let obs = env.reset([seed]);
      let succeeded = false;
      let ended = false;
      const unstableBefore = env.metrics().unstableResets;
      for (let stepIndex = 0; stepIndex < env.config.maxEpisodeSteps; stepIndex++) {
        const action = new Float32Array(actionDim);
        expert.act(env.env(0), action);
        obsRows.push(obs);
        actionRows.push(action);
        const result = env.step(action);
        rewards.push(result.reward[0]);
        obs = result.obs;
        if (result.success[0]) succeeded = true;
        if (result.terminated[0]) ended = true;
        if (result.terminated[0] || result.truncated[0]) break;
      }
      episodeStarts.push(obsRows.length);
      success.push(succeeded ? 1 : 0);
      seeds.push(seed);
      terminated.push(ended ? 1 : 0);
      options.onEpisode?.(episodeIndex, succeeded, env.metrics().unstableResets > unstableBefore);
    }
    const obs = new Float32Array(obsRows.length * obsSpec.dim);
    obsRows.forEach((row, rowIndex) => obs.set(row, rowIndex * obsSpec.dim));
    const actions = new Float32Array(actionRows.length * actionDim);
    actionRows.forEach((row, rowIndex) => actions.set(row, rowIndex * actionDim));
    return {
      task: options.task, obsMode: obsSpec.mode, obsDim: obsSpec.dim, actionDim, obs, actions,
      rewards: Float32Array.from(rewards), episodeStarts: Int32Array.from(episodeStarts),
      success: Uint8Array.from(success), seeds: Int32Array.from(seeds), terminated: Uint8Array.from(terminated),
    };
  } finally {
    env.dispose();
  }
}

/** Concatenates demonstration sets of one task and observation, episodes in the given order. */
export function mergeDemonstrations(parts: readonly Demonstrations[]): Demonstrations {
  if (parts.length === 0) throw new ShapeError('demos', 'there are no demonstrations to merge');
  const [first] = parts;
  for (const part of parts) {
    if (part.task !== first.task || part.obsMode !== first.obsMode || part.obsDim !== first.obsDim || part.actionDim !== first.actionDim) {
      throw new ShapeError('demos', `demonstrations of ${part.task} (${part.obsMode}, obs ${part.obsDim}, act ${part.actionDim}) cannot join ${first.task} (${first.obsMode}, obs ${first.obsDim}, act ${first.actionDim})`);
    }
  }
  const join = <T extends Float32Array | Int32Array | Uint8Array>(arrays: T[], make: (length: number) => T): T => {
    const out = make(arrays.reduce((sum, array) => sum + array.length, 0));
    let offset = 0;
    for (const array of arrays) {
      out.set(array, offset);
      offset += array.length;
    }
    return out;
  };
  const starts = [0];
  for (const part of parts) {
    const base = starts[starts.length - 1];
    for (let episode = 1; episode < part.episodeStarts.length; episode++) starts.push(base + part.episodeStarts[episode]);
  }
  return {
    task: first.task, obsMode: first.obsMode, obsDim: first.obsDim, actionDim: first.actionDim,
    obs: join(parts.map((part) => part.obs), (n) => new Float32Array(n)),
    actions: join(parts.map((part) => part.actions), (n) => new Float32Array(n)),
    rewards: join(parts.map((part) => part.rewards), (n) => new Float32Array(n)),
    episodeStarts: Int32Array.from(starts),
    success: join(parts.map((part) => part.success), (n) => new Uint8Array(n)),
    seeds: join(parts.map((part) => part.seeds), (n) => new Int32Array(n)),
    // How episodes ended is kept only when every part knows it.
    ...(parts.every((part) => part.terminated) ? { terminated: join(parts.map((part) => part.terminated!), (n) => new Uint8Array(n)) } : {}),
  };
}
