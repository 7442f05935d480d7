/**
 * The one env interface (DESIGN.md §4, §5): a batch of envs stepped in SMDP chunks on
 * flat Float32Arrays. The in-thread batch, the worker-sharded one and the studio's
 * restartable one all satisfy it, so the run, the rollout and evaluation see one shape.
 */
import type { EpisodeRecord } from './task-env';
import type { ImageLayout } from './task-types';
import type { VectorChunkResult, VectorEnvMetrics, VectorEnvSnapshot } from './vector-env';

export interface BatchEnv {
  readonly numEnvs: number;
  readonly obsDim: number;
  readonly actionDim: number;
  /**
   * Image observations (env.obs_type rgb, rgbd): the cameras each observation shows, their names resolved against
   * the scene. Absent for other observations; the chunk results then carry no images either.
   */
  readonly imageSpec?: ImageLayout;
  /** [numEnvs × obsDim] */
  reset(seeds: ArrayLike<number>): Promise<Float32Array>;
  /**
   * [numEnvs × imageBytes] uint8 images of the observation the last reset() returned, or the last chunk's `obs`;
   * empty without image observations. Chunk results carry their own (`images`, `finalImages`).
   */
  images?(): Uint8Array;
  /** actions [numEnvs × nSteps × actionDim] */
  stepChunk(actions: Float32Array, nSteps: number, gamma: number): Promise<VectorChunkResult>;
  /** Episodes finished since the last call. */
  drainEpisodes(): Promise<EpisodeRecord[]>;
  metrics(): Promise<VectorEnvMetrics>;
  /** The batch's exact state, for a resumed run; drain episodes first. */
  snapshot(): Promise<VectorEnvSnapshot>;
  restore(snapshot: VectorEnvSnapshot): Promise<void>;
  dispose(): Promise<void>;
}
