/**
 * A ChunkEnv over Web Worker shards that rebuilds its shards when a worker dies.
 * The call that hit the dead worker throws EnvRestartedError; the caller resets
 * its episodes (the new workers start from fresh resets) and tries again.
 */
import type { VectorChunkResult, VectorEnvConfig, VectorEnvMetrics } from '../../src/core/envs/vector-env';
import type { EpisodeRecord } from '../../src/core/envs/task-env';
import { ShardedVectorEnv } from '../../src/core/envs/sharded-vector-env';
import type { ChunkEnv } from '../../src/core/rl/chunk-env';
import { openWatchedPort, type WatchedPort } from './fault-ports';

export class EnvRestartedError extends Error {
  override name = 'EnvRestartedError';
}

export class RestartableEnv implements ChunkEnv {
  restarts = 0;
  private ports: WatchedPort[] = [];

  private constructor(
    private inner: ShardedVectorEnv,
    ports: WatchedPort[],
    private readonly config: VectorEnvConfig,
    private readonly numWorkers: number | undefined,
    private readonly beforeDecision: (() => Promise<void>) | undefined,
  ) {
    this.ports = ports;
  }

  private static async open(config: VectorEnvConfig, numWorkers: number | undefined): Promise<{ env: ShardedVectorEnv; ports: WatchedPort[] }> {
    const ports: WatchedPort[] = [];
    const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
    const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2;
    const env = await ShardedVectorEnv.create(config, () => {
      const port = openWatchedPort();
      ports.push(port);
      return port;
    }, { numWorkers, hardwareConcurrency: cores, sharedMemory: isolated });
    return { env, ports };
  }

  /** `beforeDecision` runs before every chunk step: the trainer's cooperative pause point. */
  static async create(config: VectorEnvConfig, numWorkers?: number, beforeDecision?: () => Promise<void>): Promise<RestartableEnv> {
    const { env, ports } = await RestartableEnv.open(config, numWorkers);
    return new RestartableEnv(env, ports, config, numWorkers, beforeDecision);
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

  /** Kills one env worker (fault injection in test builds). */
  killWorker(): void {
    this.ports[0]?.kill();
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!this.ports.some((port) => port.dead)) throw error;
      const cause = error instanceof Error ? error.message : String(error);
      const old = this.inner;
      this.ports.forEach((port) => void port.terminate());
      void old.dispose().catch(() => undefined);
      const { env, ports } = await RestartableEnv.open(this.config, this.numWorkers);
      this.inner = env;
      this.ports = ports;
      this.restarts++;
      throw new EnvRestartedError(`env workers restarted after a crash (${cause})`);
    }
  }

  reset(seeds: ArrayLike<number>): Promise<Float32Array> {
    return this.guard(() => this.inner.reset(seeds));
  }

  async stepChunk(actions: Float32Array, nSteps: number, gamma: number): Promise<VectorChunkResult> {
    await this.beforeDecision?.();
    return this.guard(() => this.inner.stepChunk(actions, nSteps, gamma));
  }

  drainEpisodes(): Promise<EpisodeRecord[]> {
    return this.guard(() => this.inner.drainEpisodes());
  }

  metrics(): Promise<VectorEnvMetrics> {
    return this.guard(() => this.inner.metrics());
  }

  async dispose(): Promise<void> {
    await this.inner.dispose();
  }
}
