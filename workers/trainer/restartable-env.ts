/**
 * A BatchEnv over Web Worker shards that rebuilds its shards when a worker dies.
 * The call that hit the dead worker throws EnvRestartedError; the caller resets
 * its episodes (the new workers start from fresh resets) and tries again.
 */
import type { VectorChunkResult, VectorEnvMetrics, VectorEnvSnapshot } from '../../src/core/envs/vector-env';
import type { VectorEnvConfig } from '../../src/core/envs/vector-env-config';
import type { EpisodeRecord } from '../../src/core/envs/task-env';
import type { ImageLayout } from '../../src/core/envs/task-types';
import { ShardedVectorEnv } from '../../src/core/envs/sharded-vector-env';
import type { BatchEnv } from '../../src/core/envs/batch-env';
import type { ShardPort } from '../../src/core/envs/shard-protocol';
import { hardwareCores, isCrossOriginIsolated, openBrowserShardPort } from '../env-pool';
import { openWatchedPort, type WatchedPort } from './fault-ports';

export class EnvRestartedError extends Error {
  override name = 'EnvRestartedError';
}

export class RestartableEnv implements BatchEnv {
  restarts = 0;
  private ports: WatchedPort[] = [];
  /** Rebuilt workers hold no episodes until the next reset: every other call says so as a restart. */
  private awaitingReset = false;

  private constructor(
    private inner: ShardedVectorEnv,
    ports: WatchedPort[],
    private readonly config: VectorEnvConfig,
    private readonly numWorkers: number | undefined,
    private readonly openPort: () => ShardPort,
  ) {
    this.ports = ports;
  }

  private static async open(config: VectorEnvConfig, numWorkers: number | undefined, openPort: () => ShardPort): Promise<{ env: ShardedVectorEnv; ports: WatchedPort[] }> {
    const ports: WatchedPort[] = [];
    const env = await ShardedVectorEnv.create(config, () => {
      const port = openWatchedPort(openPort());
      ports.push(port);
      return port;
    }, { numWorkers, hardwareConcurrency: hardwareCores(), sharedMemory: isCrossOriginIsolated() });
    return { env, ports };
  }

  /** `openPort` opens one env worker's port (test builds pass one whose workers can be crashed). */
  static async create(config: VectorEnvConfig, numWorkers?: number, openPort: () => ShardPort = openBrowserShardPort): Promise<RestartableEnv> {
    const { env, ports } = await RestartableEnv.open(config, numWorkers, openPort);
    return new RestartableEnv(env, ports, config, numWorkers, openPort);
  }

  get numEnvs(): number {
    return this.inner.numEnvs;
  }

  get obsDim(): number {
    return this.inner.obsDim;
  }

  get actionDim(): number {
    return this.inner.actionDim;
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    if (this.awaitingReset) throw new EnvRestartedError('env workers were restarted after a crash; their episodes start again from fresh resets');
    try {
      return await call();
    } catch (error) {
      if (!this.ports.some((port) => port.dead)) throw error;
      const cause = error instanceof Error ? error.message : String(error);
      const old = this.inner;
      this.ports.forEach((port) => void port.terminate());
      void old.dispose().catch(() => undefined);
      const { env, ports } = await RestartableEnv.open(this.config, this.numWorkers, this.openPort);
      this.inner = env;
      this.ports = ports;
      this.restarts++;
      this.awaitingReset = true;
      throw new EnvRestartedError(`env workers restarted after a crash (${cause})`);
    }
  }

  get imageSpec(): ImageLayout | undefined {
    return this.inner.imageSpec;
  }

  images(): Uint8Array {
    return this.inner.images();
  }

  reset(seeds: ArrayLike<number>): Promise<Float32Array> {
    this.awaitingReset = false;
    return this.guard(() => this.inner.reset(seeds));
  }

  async stepChunk(actions: Float32Array, nSteps: number, gamma: number): Promise<VectorChunkResult> {
    return this.guard(() => this.inner.stepChunk(actions, nSteps, gamma));
  }

  drainEpisodes(): Promise<EpisodeRecord[]> {
    return this.guard(() => this.inner.drainEpisodes());
  }

  metrics(): Promise<VectorEnvMetrics> {
    return this.guard(() => this.inner.metrics());
  }

  snapshot(): Promise<VectorEnvSnapshot> {
    return this.guard(() => this.inner.snapshot());
  }

  restore(snapshot: VectorEnvSnapshot): Promise<void> {
    return this.guard(() => this.inner.restore(snapshot));
  }

  async dispose(): Promise<void> {
    await this.inner.dispose();
  }
}
