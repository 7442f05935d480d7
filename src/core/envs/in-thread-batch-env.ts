/** A VectorEnv in this thread behind the BatchEnv interface (tests, evaluation, env.workers = 1 hosts). */
import type { BatchEnv } from './batch-env';
import type { Mujoco } from './mujoco-types';
import type { EpisodeRecord } from './task-env';
import { VectorEnv, type VectorChunkResult, type VectorEnvMetrics, type VectorEnvSnapshot } from './vector-env';
import type { VectorEnvConfig } from './vector-env-config';
import type { ImageLayout } from './task-types';

export class InThreadBatchEnv implements BatchEnv {
  readonly env: VectorEnv;

  constructor(mj: Mujoco, config: VectorEnvConfig) {
    this.env = new VectorEnv(mj, config);
  }

  get numEnvs(): number { return this.env.numEnvs; }
  get obsDim(): number { return this.env.obsDim; }
  get actionDim(): number { return this.env.config.actionDim; }
  get imageSpec(): ImageLayout | undefined { return this.env.imageSpec; }
  images(): Uint8Array { return this.env.images(); }

  async reset(seeds: ArrayLike<number>): Promise<Float32Array> { return this.env.reset(seeds); }
  async stepChunk(actions: Float32Array, nSteps: number, gamma: number): Promise<VectorChunkResult> { return this.env.stepChunk(actions, nSteps, gamma); }
  async drainEpisodes(): Promise<EpisodeRecord[]> { return this.env.drainEpisodes(); }
  async metrics(): Promise<VectorEnvMetrics> { return this.env.metrics(); }
  async snapshot(): Promise<VectorEnvSnapshot> { return this.env.snapshot(); }
  async restore(snapshot: VectorEnvSnapshot): Promise<void> { this.env.restore(snapshot); }
  async dispose(): Promise<void> { this.env.dispose(); }
}
