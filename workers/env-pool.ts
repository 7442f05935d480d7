/**
 * Opens env shards as Web Workers (from the trainer worker or the page) and
 * builds the sharded vector env: shared memory when cross-origin isolated,
 * transfer otherwise; one worker per core minus one unless told otherwise.
 */
import type { ShardPort } from '../src/core/envs/shard-protocol';
import type { VectorEnvConfig } from '../src/core/envs/vector-env-config';
import { ShardedVectorEnv, type ShardedVectorEnvOptions } from '../src/core/envs/sharded-vector-env';

/** Logical cores the page or worker reports (2 where it reports none). */
export function hardwareCores(): number {
  return (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2;
}

/** Whether SharedArrayBuffer may be shared with the env workers (COOP/COEP in force). */
export function isCrossOriginIsolated(): boolean {
  return (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
}

export function openBrowserShardPort(): ShardPort {
  const worker = new Worker(new URL('./env-worker.ts', import.meta.url), { type: 'module', name: 'env-shard' });
  return {
    postMessage: (message, transfer) => worker.postMessage(message, { transfer: transfer ?? [] }),
    onMessage: (handler) => worker.addEventListener('message', (event: MessageEvent) => handler(event.data)),
    onError: (handler) => worker.addEventListener('error', (event: ErrorEvent) => handler(new Error(event.message || 'env worker error'))),
    terminate: () => worker.terminate(),
  };
}

export function createBrowserVectorEnv(config: VectorEnvConfig, options: ShardedVectorEnvOptions = {}): Promise<ShardedVectorEnv> {
  return ShardedVectorEnv.create(config, () => openBrowserShardPort(), { hardwareConcurrency: hardwareCores(), sharedMemory: isCrossOriginIsolated(), ...options });
}
