/**
 * The config of a batch of envs, validated once: the in-thread VectorEnv and every
 * shard of a sharded one resolve it here, so both accept and refuse the same input.
 */
import { ConfigError, EnvError, ShapeError } from '../errors';
import { observationSpec } from './observation';
import { DEFAULT_CAMERA } from './camera/camera-lookup';
import { DEFAULT_NUM_POINTS } from './pointcloud';
import { checkImageSize, DEFAULT_IMAGE_SIZE } from './camera/pinhole';
import { taskControl, type TaskModuleRef } from './task-definition';
import { getTask } from './task-registry';
import { isImageObsMode, OBS_MODES, REWARD_MODES, type ObsMode, type ObsSpec, type RewardMode, type TaskName } from './task-types';

export interface VectorEnvConfig {
  task: TaskName;
  /** A user's task: how a worker that has not loaded it yet imports it (DESIGN.md §13). */
  taskModule?: TaskModuleRef;
  numEnvs: number;
  obsMode?: ObsMode;
  /** One of the task's controls; 'default' or absent: the task's default. */
  controlMode?: string;
  rewardMode?: RewardMode;
  numPoints?: number;
  /** depth_pointcloud, rgb and rgbd: the scene's cameras by name, in order; 'default' or absent: its first camera (config env.camera). */
  cameras?: readonly string[];
  /** depth_pointcloud, rgb and rgbd: each camera's square image side in pixels (config env.image_size). */
  imageSize?: number;
  /** Keep each episode's qpos trajectory (for replay and video). */
  recordEpisodes?: boolean;
  /** Episode length cap in env steps; 0 or absent = the task's own limit (config env.max_episode_steps). */
  maxEpisodeSteps?: number;
}

/** Validated, resolved config; every sharded worker builds from the same one. */
export interface ResolvedVectorEnvConfig extends Required<Omit<VectorEnvConfig, 'taskModule'>> {
  obsSpec: ObsSpec;
  actionDim: number;
  maxEpisodeSteps: number;
}

/** The episode cap in force: the task's limit unless the config sets a positive one. */
export function resolveMaxEpisodeSteps(requested: number | undefined, taskLimit: number): number {
  if (requested === undefined || requested === 0) return taskLimit;
  if (!Number.isInteger(requested) || requested < 1) {
    throw new ConfigError('env.max_episode_steps', `env.max_episode_steps must be a positive integer or 0 (the task default), got ${requested}`);
  }
  return requested;
}

function checkOneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(field, `${field} '${value}' is unknown; allowed values: ${allowed.join(', ')}`);
  }
  return value as T;
}

export function resolveVectorEnvConfig(config: VectorEnvConfig): ResolvedVectorEnvConfig {
  const task = getTask(config.task);
  if (!Number.isInteger(config.numEnvs) || config.numEnvs < 1) {
    throw new ConfigError('num_envs', `num_envs must be a positive integer, got ${config.numEnvs}`);
  }
  const obsMode = checkOneOf('obs_mode', config.obsMode ?? 'state', OBS_MODES);
  const control = taskControl(task, config.controlMode === 'default' ? undefined : config.controlMode);
  const rewardMode = checkOneOf('reward_mode', config.rewardMode ?? 'dense', REWARD_MODES);
  if (!task.rewardModes.includes(rewardMode)) {
    throw new ConfigError('env.reward', `env.reward=${rewardMode} does nothing for task '${task.name}', whose reward is ${task.rewardModes.join(' or ')} only`);
  }
  const numPoints = config.numPoints ?? DEFAULT_NUM_POINTS;
  const cameras = config.cameras && config.cameras.length > 0 ? [...config.cameras] : [DEFAULT_CAMERA];
  const imageSize = checkImageSize(config.imageSize ?? DEFAULT_IMAGE_SIZE);
  const obsSpec = observationSpec(task, obsMode, numPoints, { cameras, imageSize });
  if (isImageObsMode(obsMode) && obsSpec.dim === 0) {
    throw new ConfigError('env.obs_type', `task '${task.name}' marks no observation slice for '${obsMode}', so its image observations would carry no proprioception; add '${obsMode}' to the modes of those slices`);
  }
  return {
    task: task.name, numEnvs: config.numEnvs, obsMode, controlMode: control.name, rewardMode, numPoints, cameras, imageSize,
    recordEpisodes: config.recordEpisodes ?? true, obsSpec,
    actionDim: control.dim, maxEpisodeSteps: resolveMaxEpisodeSteps(config.maxEpisodeSteps, task.maxEpisodeSteps),
  };
}

/** One integer seed per env, checked before any env moves. */
export function checkSeeds(seeds: ArrayLike<number>, numEnvs: number): void {
  if (seeds.length !== numEnvs) throw new ShapeError('seeds', `seeds has length ${seeds.length}; expected num_envs = ${numEnvs}`);
  for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
    if (!Number.isInteger(seeds[envIndex])) throw new EnvError(`seed for env ${envIndex} must be an integer, got ${seeds[envIndex]}`, envIndex);
  }
}

/** Finite actions of the right length; clipping to [-1, 1] happens in the env. */
export function checkChunkActions(actions: Float32Array, numEnvs: number, nSteps: number, dim: number): void {
  if (!Number.isInteger(nSteps) || nSteps < 1) throw new ConfigError('n_action_steps', `n_action_steps must be a positive integer, got ${nSteps}`);
  if (actions.length !== numEnvs * nSteps * dim) {
    throw new ShapeError('actions', `actions has length ${actions.length}; expected num_envs × n_action_steps × action_dim = ${numEnvs} × ${nSteps} × ${dim}`);
  }
  for (let element = 0; element < actions.length; element++) {
    const value = actions[element];
    if (!Number.isFinite(value)) {
      const envIndex = Math.floor(element / (nSteps * dim));
      throw new EnvError(`action for env ${envIndex} (step ${Math.floor(element / dim) % nSteps}, dim ${element % dim}) is ${value}; actions must be finite numbers in [-1, 1]`, envIndex);
    }
  }
}
