/**
 * Browser Web Worker entry for one env shard: loads MuJoCo's wasm (served by
 * Vite) and delegates every request to src/core/envs/shard-server.ts.
 */
import loadMujoco from '@mujoco/mujoco';
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url';
import { serveEnvShard } from '../src/core/envs/shard-server';
import { registerBuiltInTasks } from '../src/tasks';

registerBuiltInTasks();

const scope = self as unknown as DedicatedWorkerGlobalScope;
const mujoco = loadMujoco({ locateFile: (path: string) => (path.endsWith('.wasm') ? wasmUrl : path) });

serveEnvShard(mujoco, {
  postMessage: (message, transfer) => scope.postMessage(message, { transfer: transfer ?? [] }),
  onMessage: (handler) => scope.addEventListener('message', (event: MessageEvent) => handler(event.data)),
  terminate: () => scope.close(),
});
