/**
 * A pass-through ChunkEnv that mirrors the trainer's observation history, so the
 * chain view can condition on the observation the next decision of each env sees.
 */
import type { VectorChunkResult, VectorEnvMetrics } from '../../src/core/envs/vector-env';
import type { EpisodeRecord } from '../../src/core/envs/task-env';
import type { ChunkEnv } from '../../src/core/rl/chunk-env';
import { ObsHistory } from '../../src/core/rl/obs-history';

export class ObsTap implements ChunkEnv {
  private history?: ObsHistory;

  constructor(private readonly inner: ChunkEnv, private readonly nObsSteps: number) {}

  get numEnvs(): number {
    return this.inner.numEnvs;
  }

  get obsDim(): number {
    return this.inner.obsDim;
  }

  get actionDim(): number {
    return this.inner.actionDim;
  }

  /** [nObsSteps·obsDim] raw stacked observation of one env, or undefined before the first reset. */
  stackedObs(envIndex: number): Float32Array | undefined {
    if (!this.history) return undefined;
    const size = this.history.stackedDim;
    return this.history.stacked().slice(envIndex * size, (envIndex + 1) * size);
  }

  async reset(seeds: ArrayLike<number>): Promise<Float32Array> {
    const obs = await this.inner.reset(seeds);
    this.history = new ObsHistory(this.inner.numEnvs, this.inner.obsDim, this.nObsSteps);
    this.history.reset(obs);
    return obs;
  }

  async stepChunk(actions: Float32Array, nSteps: number, gamma: number): Promise<VectorChunkResult> {
    const result = await this.inner.stepChunk(actions, nSteps, gamma);
    // The same restart rule as the rollout: a done env starts its stack over.
    const done = new Uint8Array(result.terminated.length);
    for (let envIndex = 0; envIndex < done.length; envIndex++) done[envIndex] = result.terminated[envIndex] || result.truncated[envIndex] ? 1 : 0;
    this.history?.push(result.obs, done);
    return result;
  }

  drainEpisodes(): Promise<EpisodeRecord[]> {
    return this.inner.drainEpisodes();
  }

  metrics(): Promise<VectorEnvMetrics> {
    return this.inner.metrics();
  }

  dispose(): Promise<void> | void {
    return this.inner.dispose();
  }
}
