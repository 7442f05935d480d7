/**
 * Runs a task's scripted expert for whole episodes and collects the
 * demonstration (observations, actions, boundaries, success). Episode e uses
 * reset seed `seed + e`; the expert's noise stream is seeded from it too.
 */
import { ShapeError, TaskError } from '../errors';
import { createRng } from '../random';
import type { Mujoco } from './mujoco-types';
import { VectorEnv } from './vector-env';
import { describeImageLayout, sameImageLayout } from './camera/image-layout';
import { getTask } from './task-registry';
import type { ImageLayout, ObsMode, TaskName } from './task-types';

export interface ExpertRolloutOptions {
  task: TaskName;
  episodes: number;
  seed: number;
  noise: number;
  /** Reset seeds of the episodes, in order; default seed, seed + 1, … (`episodes` of them). */
  seeds?: readonly number[];
  obsMode?: ObsMode;
  numPoints?: number;
  /** Image observations: the cameras and image size (env.camera, env.image_size). */
  cameras?: readonly string[];
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
  /** Image observations: the cameras each step's images show (names resolved against the scene). */
  imageSpec?: ImageLayout;
  /** Image observations: [T, cameras, size, size, channels] uint8, the images of each step's observation. */
  images?: Uint8Array;
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
  const env = new VectorEnv(mj, {
    task: options.task, numEnvs: 1, obsMode: options.obsMode ?? 'state', numPoints: options.numPoints, cameras: options.cameras, imageSize: options.imageSize,
    recordEpisodes: false, controlMode: expertSpec.control,
  });
  try {
    const { obsSpec, actionDim } = env.config;
    const obsRows: Float32Array[] = [];
    const imageRows: Uint8Array[] = [];
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
      let images = env.images();
      let succeeded = false;
      let ended = false;
      const unstableBefore = env.metrics().unstableResets;
      for (let stepIndex = 0; stepIndex < env.config.maxEpisodeSteps; stepIndex++) {
        const action = new Float32Array(actionDim);
        expert.act(env.env(0), action);
        obsRows.push(obs);
        if (env.imageSpec) imageRows.push(images);
        actionRows.push(action);
        const result = env.step(action);
        rewards.push(result.reward[0]);
        obs = result.obs;
        images = result.images ?? images;
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
    const imageFields = env.imageSpec ? { imageSpec: env.imageSpec, images: joinRows(imageRows, env.imageBytes) } : {};
    return {
      task: options.task, obsMode: obsSpec.mode, obsDim: obsSpec.dim, actionDim, obs, ...imageFields, actions,
      rewards: Float32Array.from(rewards), episodeStarts: Int32Array.from(episodeStarts),
      success: Uint8Array.from(success), seeds: Int32Array.from(seeds), terminated: Uint8Array.from(terminated),
    };
  } finally {
    env.dispose();
  }
}

/** Rows of `width` bytes, one after another. */
function joinRows(rows: readonly Uint8Array[], width: number): Uint8Array {
  const out = new Uint8Array(rows.length * width);
  rows.forEach((row, rowIndex) => out.set(row, rowIndex * width));
  return out;
}

/** Concatenates demonstration sets of one task and observation, episodes in the given order. */
export function mergeDemonstrations(parts: readonly Demonstrations[]): Demonstrations {
  if (parts.length === 0) throw new ShapeError('demos', 'there are no demonstrations to merge');
  const [first] = parts;
  for (const part of parts) {
    if (part.task !== first.task || part.obsMode !== first.obsMode || part.obsDim !== first.obsDim || part.actionDim !== first.actionDim) {
      throw new ShapeError('demos', `demonstrations of ${part.task} (${part.obsMode}, obs ${part.obsDim}, act ${part.actionDim}) cannot join ${first.task} (${first.obsMode}, obs ${first.obsDim}, act ${first.actionDim})`);
    }
    if (Boolean(part.images) !== Boolean(first.images) || (part.imageSpec && first.imageSpec && !sameImageLayout(part.imageSpec, first.imageSpec))) {
      throw new ShapeError('demos', `demonstrations with images of ${part.imageSpec ? describeImageLayout(part.imageSpec) : 'no camera'} cannot join ones of ${first.imageSpec ? describeImageLayout(first.imageSpec) : 'no camera'}`);
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
    ...(first.images ? { imageSpec: first.imageSpec, images: join(parts.map((part) => part.images!), (n) => new Uint8Array(n)) } : {}),
    actions: join(parts.map((part) => part.actions), (n) => new Float32Array(n)),
    rewards: join(parts.map((part) => part.rewards), (n) => new Float32Array(n)),
    episodeStarts: Int32Array.from(starts),
    success: join(parts.map((part) => part.success), (n) => new Uint8Array(n)),
    seeds: join(parts.map((part) => part.seeds), (n) => new Int32Array(n)),
    // How episodes ended is kept only when every part knows it.
    ...(parts.every((part) => part.terminated) ? { terminated: join(parts.map((part) => part.terminated!), (n) => new Uint8Array(n)) } : {}),
  };
}

/** How a scripted-expert recording over a sharded vector env goes. */
export interface ExpertRecording {
  /** Reset seeds, one episode each; the result keeps this order. */
  seeds: readonly number[];
  noise: number;
  /** Episodes per request: progress is reported, and a stop honoured, between requests. */
  episodesPerRequest?: number;
  onProgress?: (episodes: number, successes: number) => void;
  /** Checked before each request; true stops the recording, which then returns undefined. */
  shouldStop?: () => boolean;
}
