/**
 * The batched vector env in one thread (DESIGN.md §4, §5). Flat Float32Arrays:
 * observations [numEnvs × obsDim], actions [numEnvs × actionDim]. Each env
 * auto-resets when done; `finalObs` keeps the observation before that reset.
 * The next episode's seed comes from a per-env stream started by reset(seeds),
 * so a batch is reproducible however it is sharded.
 */
import { createRng, type Rng } from '../random';
import { ConfigError, EnvError, ShapeError } from '../errors';
import type { Mujoco } from './mujoco-types';
import { SceneModel } from './scene-model';
import { actionDim, CONTROL_MODES, type ControlMode } from './controller';
import { getTask } from './registry';
import { ObservationWriter } from './observation';
import { TaskEnv, type EpisodeRecord } from './task-env';
import { OBS_MODES, REWARD_MODES, type ObsMode, type ObsSpec, type RewardMode, type TaskName } from './task-types';
import { DEFAULT_NUM_POINTS } from './pointcloud';

export interface VectorEnvConfig {
  task: TaskName;
  numEnvs: number;
  obsMode?: ObsMode;
  controlMode?: ControlMode;
  rewardMode?: RewardMode;
  numPoints?: number;
  /** Keep each episode's qpos trajectory (for replay and video). */
  recordEpisodes?: boolean;
  /** Episode length cap in env steps; 0 or absent = the task's own limit (config env.max_episode_steps). */
  maxEpisodeSteps?: number;
}

/** The episode cap in force: the task's limit unless the config sets a positive one. */
export function resolveMaxEpisodeSteps(requested: number | undefined, taskLimit: number): number {
  if (requested === undefined || requested === 0) return taskLimit;
  if (!Number.isInteger(requested) || requested < 1) {
    throw new ConfigError('env.max_episode_steps', `env.max_episode_steps must be a positive integer or 0 (the task default), got ${requested}`);
  }
  return requested;
}

/** Per-env results of step(); arrays are owned by the caller after return. */
export interface VectorStepResult {
  /** [numEnvs × obsDim] observation after auto-reset. */
  obs: Float32Array;
  /** [numEnvs] */
  reward: Float32Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
  success: Uint8Array;
  /** [numEnvs × obsDim] observation before auto-reset; rows of envs that are not done hold obs. */
  finalObs: Float32Array;
}

/** SMDP chunk result (DESIGN.md §4): reward is R = Σ_j γ^j r_j, steps is τ. */
export interface VectorChunkResult extends VectorStepResult {
  /** [numEnvs] env steps actually run (τ), stopping at the first done. */
  steps: Int32Array;
}

export interface VectorEnvMetrics {
  /** Action elements outside [-1, 1] that were clipped. */
  clippedActions: number;
  /** Envs truncated and reset because the physics went unstable. */
  unstableResets: number;
  envSteps: number;
}

/** Validated, resolved config; every sharded worker builds from the same one. */
export interface ResolvedVectorEnvConfig extends Required<VectorEnvConfig> {
  obsSpec: ObsSpec;
  actionDim: number;
  maxEpisodeSteps: number;
}

function checkOneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(field, `${field} '${value}' is unknown; allowed values: ${allowed.join(', ')}`);
  }
  return value as T;
}

const SEED_STREAM_SALT = 0x5bd1e995;

export class VectorEnv {
  readonly config: ResolvedVectorEnvConfig;
  readonly scene: SceneModel;
  private readonly envs: TaskEnv[] = [];
  private readonly seedStreams: Rng[] = [];
  private readonly episodes: EpisodeRecord[] = [];
  private readonly currentObs: Float32Array;
  private readonly metricsState: VectorEnvMetrics = { clippedActions: 0, unstableResets: 0, envSteps: 0 };
  private hasReset = false;

  constructor(mj: Mujoco, config: VectorEnvConfig) {
    const task = getTask(config.task);
    if (!Number.isInteger(config.numEnvs) || config.numEnvs < 1) {
      throw new ConfigError('num_envs', `num_envs must be a positive integer, got ${config.numEnvs}`);
    }
    const obsMode = checkOneOf('obs_mode', config.obsMode ?? 'state', OBS_MODES);
    const controlMode = checkOneOf('control_mode', config.controlMode ?? 'ee_delta_pos', CONTROL_MODES);
    const rewardMode = checkOneOf('reward_mode', config.rewardMode ?? 'dense', REWARD_MODES);
    this.scene = new SceneModel(mj, task.mjcf());
    try {
      const writer = new ObservationWriter(task, this, obsMode, config.numPoints ?? DEFAULT_NUM_POINTS);
      this.config = {
        task: task.name, numEnvs: config.numEnvs, obsMode, controlMode, rewardMode,
        numPoints: config.numPoints ?? DEFAULT_NUM_POINTS, recordEpisodes: config.recordEpisodes ?? true,
        obsSpec: writer.spec, actionDim: actionDim(controlMode),
        maxEpisodeSteps: resolveMaxEpisodeSteps(config.maxEpisodeSteps, task.maxEpisodeSteps),
      };
      for (let envIndex = 0; envIndex < config.numEnvs; envIndex++) {
        this.envs.push(new TaskEnv(this.scene, task, writer, controlMode, rewardMode, this.config.recordEpisodes, this.config.maxEpisodeSteps));
        this.seedStreams.push(createRng(envIndex));
      }
      this.currentObs = new Float32Array(config.numEnvs * writer.spec.dim);
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  get numEnvs(): number {
    return this.config.numEnvs;
  }

  get obsDim(): number {
    return this.config.obsSpec.dim;
  }

  /** Env i's view (for experts and tests). */
  env(envIndex: number): TaskEnv {
    return this.envs[envIndex];
  }

  /** Resets every env with its seed; returns [numEnvs × obsDim]. */
  reset(seeds: ArrayLike<number>): Float32Array {
    if (seeds.length !== this.numEnvs) throw new ShapeError('seeds', `seeds has length ${seeds.length}; expected num_envs = ${this.numEnvs}`);
    for (let envIndex = 0; envIndex < this.numEnvs; envIndex++) {
      const seed = seeds[envIndex];
      if (!Number.isInteger(seed)) throw new EnvError(`seed for env ${envIndex} must be an integer, got ${seed}`, envIndex);
      this.seedStreams[envIndex] = createRng((seed ^ SEED_STREAM_SALT) >>> 0);
      this.envs[envIndex].reset(seed, this.currentObs, envIndex * this.obsDim);
    }
    this.hasReset = true;
    return this.currentObs.slice();
  }

  /** One control step for every env; actions [numEnvs × actionDim]. */
  step(actions: Float32Array): VectorStepResult {
    const result = this.stepChunk(actions, 1, 1);
    return { obs: result.obs, reward: result.reward, terminated: result.terminated, truncated: result.truncated, success: result.success, finalObs: result.finalObs };
  }

  /**
   * SMDP chunk (DESIGN.md §4): actions [numEnvs × nSteps × actionDim]. Env i
   * runs its actions in order and stops at its first done; reward[i] is
   * Σ_j γ^j r_j over the steps run, steps[i] is τ.
   */
  stepChunk(actions: Float32Array, nSteps: number, gamma: number): VectorChunkResult {
    if (!this.hasReset) throw new EnvError('reset(seeds) must be called before step');
    const dim = this.config.actionDim;
    if (!Number.isInteger(nSteps) || nSteps < 1) throw new ConfigError('n_action_steps', `n_action_steps must be a positive integer, got ${nSteps}`);
    if (actions.length !== this.numEnvs * nSteps * dim) {
      throw new ShapeError('actions', `actions has length ${actions.length}; expected num_envs × n_action_steps × action_dim = ${this.numEnvs} × ${nSteps} × ${dim}`);
    }
    const clipped = this.validateAndClip(actions, nSteps, dim);
    const n = this.numEnvs;
    const obsDim = this.obsDim;
    const result: VectorChunkResult = {
      obs: this.currentObs, reward: new Float32Array(n), terminated: new Uint8Array(n), truncated: new Uint8Array(n),
      success: new Uint8Array(n), finalObs: new Float32Array(n * obsDim), steps: new Int32Array(n),
    };
    for (let envIndex = 0; envIndex < n; envIndex++) {
      const env = this.envs[envIndex];
      const obsOffset = envIndex * obsDim;
      let discount = 1;
      let chunkReward = 0;
      for (let stepIndex = 0; stepIndex < nSteps; stepIndex++) {
        const outcome = env.step(clipped, (envIndex * nSteps + stepIndex) * dim, this.currentObs, obsOffset);
        this.metricsState.envSteps++;
        chunkReward += discount * outcome.reward;
        discount *= gamma;
        result.steps[envIndex]++;
        if (outcome.success) result.success[envIndex] = 1;
        if (outcome.terminated || outcome.truncated) {
          result.terminated[envIndex] = outcome.terminated ? 1 : 0;
          result.truncated[envIndex] = outcome.truncated ? 1 : 0;
          if (outcome.unstable) this.metricsState.unstableResets++;
          this.episodes.push(env.episodeRecord(envIndex));
          break;
        }
      }
      result.reward[envIndex] = chunkReward;
      result.finalObs.set(this.currentObs.subarray(obsOffset, obsOffset + obsDim), obsOffset);
      if (result.terminated[envIndex] || result.truncated[envIndex]) {
        const nextSeed = Math.floor(this.seedStreams[envIndex].uniform() * 2 ** 31);
        env.reset(nextSeed, this.currentObs, obsOffset);
      }
    }
    result.obs = this.currentObs.slice();
    return result;
  }

  /** Rejects non-finite actions (naming env and dim) and clips the rest to [-1, 1]. */
  private validateAndClip(actions: Float32Array, nSteps: number, dim: number): Float32Array {
    const out = new Float32Array(actions.length);
    for (let element = 0; element < actions.length; element++) {
      const value = actions[element];
      if (!Number.isFinite(value)) {
        const envIndex = Math.floor(element / (nSteps * dim));
        throw new EnvError(`action for env ${envIndex} (step ${Math.floor(element / dim) % nSteps}, dim ${element % dim}) is ${value}; actions must be finite numbers in [-1, 1]`, envIndex);
      }
      if (value > 1 || value < -1) this.metricsState.clippedActions++;
      out[element] = Math.min(1, Math.max(-1, value));
    }
    return out;
  }

  /** Finished episodes since the last call, oldest first. */
  drainEpisodes(): EpisodeRecord[] {
    return this.episodes.splice(0, this.episodes.length);
  }

  metrics(): VectorEnvMetrics {
    return { ...this.metricsState };
  }

  dispose(): void {
    for (const env of this.envs.splice(0)) env.dispose();
    this.scene.dispose();
  }
}
