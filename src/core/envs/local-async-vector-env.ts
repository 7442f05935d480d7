/**
 * The in-thread VectorEnv behind the AsyncVectorEnv interface, for callers
 * that want one code path with or without env workers (e.g. env_workers = 0).
 */
import type { Mujoco } from './mujoco-types';
import { VectorEnv, type VectorChunkResult, type VectorEnvConfig, type VectorEnvMetrics, type VectorStepResult } from './vector-env';
import type { AsyncVectorEnv } from './sharded-vector-env';
import type { EpisodeRecord } from './task-env';

export class LocalAsyncVectorEnv implements AsyncVectorEnv {
  readonly env: VectorEnv;

  constructor(mj: Mujoco, config: VectorEnvConfig) {
    this.env = new VectorEnv(mj, config);
  }

  get numEnvs(): number { return this.env.numEnvs; }
  get obsDim(): number { return this.env.obsDim; }
  get actionDim(): number { return this.env.config.actionDim; }

  async reset(seeds: ArrayLike<number>): Promise<Float32Array> { return this.env.reset(seeds); }
  async step(actions: Float32Array): Promise<VectorStepResult> { return this.env.step(actions); }
  async stepChunk(actions: Float32Array, nSteps: number, gamma: number): Promise<VectorChunkResult> { return this.env.stepChunk(actions, nSteps, gamma); }
  async drainEpisodes(): Promise<EpisodeRecord[]> { return this.env.drainEpisodes(); }
  async metrics(): Promise<VectorEnvMetrics> { return this.env.metrics(); }
  async dispose(): Promise<void> { this.env.dispose(); }
}
