/**
 * Loads the single-threaded MuJoCo wasm module in Node. Core code receives the
 * loaded module as a parameter; this is the Node side of that contract.
 */
import loadMujoco, { type MainModule } from '@mujoco/mujoco';
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { ShardPort } from '../core/envs/shard-protocol';
import type { VectorEnvConfig } from '../core/envs/vector-env-config';
import { ShardedVectorEnv, type ShardedVectorEnvOptions } from '../core/envs/sharded-vector-env';

let cached: Promise<MainModule> | undefined;

/** The MuJoCo module, loaded once per process (or worker thread). */
export function loadMujocoNode(): Promise<MainModule> {
  cached ??= loadMujoco();
  return cached;
}

/**
 * Opens one env shard in a worker_thread. The worker runs TypeScript through
 * tsx, loads its own MuJoCo module and serves requests (workers/env-thread.ts).
 */
export function openNodeShardPort(): ShardPort {
  // The entry is TypeScript: register tsx's loader inside the thread, then import it.
  const entry = new URL('../../workers/env-thread.ts', import.meta.url).href;
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsxApi = pathToFileURL(path.join(tsxDir, 'dist', 'esm', 'api', 'index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`
    + `.catch((error) => { console.error(error); process.exit(1); });`;
  const worker = new Worker(bootstrap, { eval: true });
  let terminating = false;
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer as never),
    onMessage: (handler) => {
      worker.on('message', handler);
    },
    onError: (handler) => {
      worker.on('error', handler);
      // A thread that exits on its own (e.g. its entry failed to load) fails pending requests too.
      worker.on('exit', (code) => {
        if (!terminating) handler(new Error(`env worker exited with code ${code}`));
      });
    },
    terminate: async () => {
      terminating = true;
      await worker.terminate();
    },
  };
}

/** A sharded vector env over worker_threads; one worker per core minus one by default. */
export function createNodeShardedEnv(config: VectorEnvConfig, options: ShardedVectorEnvOptions = {}): Promise<ShardedVectorEnv> {
  return ShardedVectorEnv.create(config, () => openNodeShardPort(), { hardwareConcurrency: availableParallelism(), ...options });
}
