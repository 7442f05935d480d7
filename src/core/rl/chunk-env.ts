import type { EpisodeRecord } from '../envs/task-env';
import type { VectorChunkResult, VectorEnv, VectorEnvMetrics } from '../envs/vector-env';

/**
 * What the trainer needs from a batch of envs (DESIGN.md §4): SMDP chunk steps on flat
 * Float32Arrays. A single-process VectorEnv and a worker-sharded one both satisfy it.
 */
export interface ChunkEnv {
  readonly numEnvs: number;
  readonly obsDim: number;
  readonly actionDim: number;
  /** [numEnvs × obsDim] */
  reset(seeds: ArrayLike<number>): Promise<Float32Array>;
  /** actions [numEnvs × nSteps × actionDim] */
  stepChunk(actions: Float32Array, nSteps: number, gamma: number): Promise<VectorChunkResult>;
  /** Episodes finished since the last call. */
  drainEpisodes(): Promise<EpisodeRecord[]>;
  metrics(): Promise<VectorEnvMetrics>;
  dispose(): Promise<void> | void;
}

/** Wraps an in-process VectorEnv as a ChunkEnv. */
export function chunkEnvFromVectorEnv(env: VectorEnv): ChunkEnv {
  return {
    numEnvs: env.numEnvs,
    obsDim: env.obsDim,
    actionDim: env.config.actionDim,
    reset: async (seeds) => env.reset(seeds),
    stepChunk: async (actions, nSteps, gamma) => env.stepChunk(actions, nSteps, gamma),
    drainEpisodes: async () => env.drainEpisodes(),
    metrics: async () => env.metrics(),
    dispose: () => env.dispose(),
  };
}
