/**
 * The batched vector env in one thread (DESIGN.md §4, §5). Flat Float32Arrays:
 * observations [numEnvs × obsDim], actions [numEnvs × actionDim]. Each env
 * auto-resets when done; `finalObs` keeps the observation before that reset.
 * The next episode's seed comes from a per-env stream started by reset(seeds),
 * so a batch is reproducible however it is sharded.
 */
import type { TaskView } from './task-api';
import { createRng, restoreRng, type Rng, type RngState } from '../random';
import { EnvError } from '../errors';
import type { Mujoco } from './mujoco-types';
import { envCapacity, envCapacityError, envMemoryExhaustedError, isMujocoOutOfMemory } from './env-memory';
import { SceneModel } from './scene-model';
import { getTask } from './task-registry';
import { taskControl } from './task-definition';
import { ObservationWriter } from './observation';
import { TaskEnv, type EpisodeRecord, type TaskEnvSnapshot } from './task-env';
import { checkChunkActions, checkSeeds, resolveVectorEnvConfig, type ResolvedVectorEnvConfig, type VectorEnvConfig } from './vector-env-config';
import type { ImageLayout } from './task-types';
import { createCameraImageSource, type CameraImageSource } from './camera/image-source';
import { imageBytes, resolveImageLayout } from './camera/image-layout';

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
  /** Image observations only: [numEnvs × imageBytes] the images of `obs` (after auto-reset), uint8. */
  images?: Uint8Array;
  /** Image observations only: [numEnvs × imageBytes] the images of `finalObs` (before auto-reset). */
  finalImages?: Uint8Array;
}

/** SMDP chunk result (DESIGN.md §4): reward is R = Σ_j γ^j r_j, steps is τ. */
export interface VectorChunkResult extends VectorStepResult {
  /** [numEnvs] env steps actually run (τ), stopping at the first done. */
  steps: Int32Array;
  /**
   * [numEnvs × nSteps × obsDim] the observation after each step run, before any auto-reset
   * (row τ−1 of a done env is its finalObs); rows past τ are zeros. Observation histories
   * stack these when they advance one control step at a time.
   */
  stepObs: Float32Array;
}

export interface VectorEnvMetrics {
  /** Action elements outside [-1, 1] that were clipped. */
  clippedActions: number;
  /** Envs truncated and reset because the physics went unstable. */
  unstableResets: number;
  envSteps: number;
}

const SEED_STREAM_SALT = 0x5bd1e995;

/**
 * A whole batch mid-run, exactly (DESIGN.md §6 "Resume state"): each env's episode,
 * the per-env seed streams of later episodes, the counters and the current observation.
 */
export interface VectorEnvSnapshot {
  envs: TaskEnvSnapshot[];
  seedStreams: RngState[];
  metrics: VectorEnvMetrics;
  /** [numEnvs × obsDim] */
  obs: Float32Array;
  /** Image observations only: [numEnvs × imageBytes] the current observation's images. */
  images?: Uint8Array;
}

export class VectorEnv {
  readonly config: ResolvedVectorEnvConfig;
  readonly scene: SceneModel;
  private readonly envs: TaskEnv[] = [];
  private readonly seedStreams: Rng[] = [];
  private readonly episodes: EpisodeRecord[] = [];
  private readonly currentObs: Float32Array;
  /** Image observations: the cameras rendered (names resolved against the scene), their source and the current images. */
  readonly imageSpec?: ImageLayout;
  private readonly imageSource?: CameraImageSource;
  private readonly currentImages: Uint8Array = new Uint8Array(0);
  private writer?: ObservationWriter;
  private readonly metricsState: VectorEnvMetrics = { clippedActions: 0, unstableResets: 0, envSteps: 0 };
  private hasReset = false;

  constructor(mj: Mujoco, config: VectorEnvConfig) {
    this.config = resolveVectorEnvConfig(config);
    const task = getTask(this.config.task);
    this.scene = new SceneModel(mj, task.scene, task.keyframe, task.origin, { islands: task.islands });
    try {
      const { numEnvs } = this.config;
      const model = this.scene.model;
      // Refused before anything is allocated; the catch below covers memory that other envs of this thread already hold.
      if (numEnvs > envCapacity(model)) throw envCapacityError(task.name, numEnvs, envCapacity(model), model);
      const { obsMode, numPoints, cameras, imageSize } = this.config;
      const writer = new ObservationWriter(task, this.scene, obsMode, numPoints, { cameras, imageSize });
      this.writer = writer;
      const control = taskControl(task, this.config.controlMode);
      for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
        try {
          this.envs.push(new TaskEnv(this.scene, task, writer, control, this.config.rewardMode, this.config.recordEpisodes, this.config.maxEpisodeSteps));
        } catch (error) {
          throw isMujocoOutOfMemory(error) ? envMemoryExhaustedError(task.name, numEnvs, envIndex, model) : error;
        }
        this.seedStreams.push(createRng(envIndex));
      }
      this.currentObs = new Float32Array(this.config.numEnvs * writer.spec.dim);
      if (this.config.obsSpec.image) {
        this.imageSpec = resolveImageLayout(this.config.obsSpec.image, mj, model, task.name);
        this.imageSource = createCameraImageSource({ mj, model, ...this.imageSpec });
        this.currentImages = new Uint8Array(numEnvs * imageBytes(this.imageSpec));
      }
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

  /** Bytes of one env's images per observation; 0 without image observations. */
  get imageBytes(): number {
    return this.imageSpec ? imageBytes(this.imageSpec) : 0;
  }

  /** [numEnvs × imageBytes] a copy of the current observation's images (empty without image observations). */
  images(): Uint8Array {
    return this.currentImages.slice();
  }

  /** Renders env `envIndex`'s cameras into out at that env's row. */
  private renderImages(envIndex: number, out: Uint8Array): void {
    if (!this.imageSource) return;
    const env = this.envs[envIndex];
    this.imageSource.render(this.scene.model, env.data, out, envIndex * this.imageBytes);
  }

  /** Env i's view (for experts and tests). */
  env(envIndex: number): TaskEnv {
    return this.envs[envIndex];
  }

  /** Resets every env with its seed; returns [numEnvs × obsDim]. */
  reset(seeds: ArrayLike<number>): Float32Array {
    checkSeeds(seeds, this.numEnvs);
    for (let envIndex = 0; envIndex < this.numEnvs; envIndex++) {
      const seed = seeds[envIndex];
      this.seedStreams[envIndex] = createRng((seed ^ SEED_STREAM_SALT) >>> 0);
      this.envs[envIndex].reset(seed, this.currentObs, envIndex * this.obsDim);
      this.renderImages(envIndex, this.currentImages);
    }
    this.hasReset = true;
    return this.currentObs.slice();
  }

  /** One control step for every env; actions [numEnvs × actionDim]. */
  step(actions: Float32Array): VectorStepResult {
    const result = this.stepChunk(actions, 1, 1);
    return {
      obs: result.obs, reward: result.reward, terminated: result.terminated, truncated: result.truncated, success: result.success, finalObs: result.finalObs,
      ...(result.images ? { images: result.images, finalImages: result.finalImages } : {}),
    };
  }

  /**
   * SMDP chunk (DESIGN.md §4): actions [numEnvs × nSteps × actionDim]. Env i
   * runs its actions in order and stops at its first done; reward[i] is
   * Σ_j γ^j r_j over the steps run, steps[i] is τ.
   */
  stepChunk(actions: Float32Array, nSteps: number, gamma: number): VectorChunkResult {
    if (!this.hasReset) throw new EnvError('reset(seeds) must be called before step');
    const dim = this.config.actionDim;
    checkChunkActions(actions, this.numEnvs, nSteps, dim);
    const clipped = this.clip(actions);
    const n = this.numEnvs;
    const obsDim = this.obsDim;
    const result: VectorChunkResult = {
      obs: this.currentObs, reward: new Float32Array(n), terminated: new Uint8Array(n), truncated: new Uint8Array(n),
      success: new Uint8Array(n), finalObs: new Float32Array(n * obsDim), steps: new Int32Array(n),
      stepObs: new Float32Array(n * nSteps * obsDim),
    };
    // Images are rendered where a decision reads them: at the end of the chunk, and after an auto-reset.
    const finalImages = this.imageSource ? new Uint8Array(n * this.imageBytes) : undefined;
    for (let envIndex = 0; envIndex < n; envIndex++) {
      const env = this.envs[envIndex];
      const obsOffset = envIndex * obsDim;
      let discount = 1;
      let chunkReward = 0;
      for (let stepIndex = 0; stepIndex < nSteps; stepIndex++) {
        const outcome = env.step(clipped, (envIndex * nSteps + stepIndex) * dim, this.currentObs, obsOffset);
        result.stepObs.set(this.currentObs.subarray(obsOffset, obsOffset + obsDim), (envIndex * nSteps + stepIndex) * obsDim);
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
      if (finalImages) this.renderImages(envIndex, finalImages);
      if (result.terminated[envIndex] || result.truncated[envIndex]) {
        const nextSeed = Math.floor(this.seedStreams[envIndex].uniform() * 2 ** 31);
        env.reset(nextSeed, this.currentObs, obsOffset);
        this.renderImages(envIndex, this.currentImages);
      } else if (finalImages) {
        const bytes = this.imageBytes;
        this.currentImages.set(finalImages.subarray(envIndex * bytes, (envIndex + 1) * bytes), envIndex * bytes);
      }
    }
    result.obs = this.currentObs.slice();
    if (finalImages) {
      result.finalImages = finalImages;
      result.images = this.currentImages.slice();
    }
    return result;
  }

  /** Clips checked actions to [-1, 1], counting the clipped elements. */
  private clip(actions: Float32Array): Float32Array {
    const out = new Float32Array(actions.length);
    for (let element = 0; element < actions.length; element++) {
      const value = actions[element];
      if (value > 1 || value < -1) this.metricsState.clippedActions++;
      out[element] = Math.min(1, Math.max(-1, value));
    }
    return out;
  }

  /** The batch as it is now; finished episodes must have been drained first, since they are not part of it. */
  snapshot(): VectorEnvSnapshot {
    if (!this.hasReset) throw new EnvError('an env batch can be snapshotted only after reset(seeds)');
    if (this.episodes.length > 0) throw new EnvError(`an env batch holds ${this.episodes.length} undrained episodes; drain them before a snapshot`);
    return {
      envs: this.envs.map((env) => env.snapshot()),
      seedStreams: this.seedStreams.map((stream) => stream.state()),
      metrics: { ...this.metricsState },
      obs: this.currentObs.slice(),
      ...(this.imageSource ? { images: this.currentImages.slice() } : {}),
    };
  }

  /** Continues exactly where snapshot() was taken, on a batch built from the same config. */
  restore(snapshot: VectorEnvSnapshot): void {
    const n = this.numEnvs;
    if (snapshot.envs.length !== n || snapshot.seedStreams.length !== n || snapshot.obs.length !== n * this.obsDim) {
      throw new EnvError(`saved env state is for ${snapshot.envs.length} envs of obs size ${snapshot.obs.length / Math.max(1, snapshot.envs.length)}; this batch has ${n} envs of obs size ${this.obsDim}`);
    }
    if (this.imageSource && snapshot.images?.length !== this.currentImages.length) {
      throw new EnvError(`saved env state holds ${snapshot.images?.length ?? 0} image bytes; this batch's images take ${this.currentImages.length}`);
    }
    for (let envIndex = 0; envIndex < n; envIndex++) {
      this.envs[envIndex].restore(snapshot.envs[envIndex]);
      this.seedStreams[envIndex] = restoreRng(snapshot.seedStreams[envIndex]);
    }
    if (snapshot.images && this.imageSource) this.currentImages.set(snapshot.images);
    Object.assign(this.metricsState, snapshot.metrics);
    this.currentObs.set(snapshot.obs);
    this.episodes.length = 0;
    this.hasReset = true;
  }

  /** Finished episodes since the last call, oldest first. */
  drainEpisodes(): EpisodeRecord[] {
    return this.episodes.splice(0, this.episodes.length);
  }

  metrics(): VectorEnvMetrics {
    return { ...this.metricsState };
  }

  /** What env `index`'s task sees, for checks that call a task's own functions. */
  taskView(index: number): TaskView {
    return this.envs[index];
  }

  dispose(): void {
    for (const env of this.envs.splice(0)) env.dispose();
    this.imageSource?.delete();
    this.writer?.dispose();
    this.writer = undefined;
    this.scene.dispose();
  }
}
