/**
 * Node worker_thread entry for one env shard: loads its own MuJoCo module and serves
 * ShardRequests from the parent (see src/core/envs/shard-server.ts). The parent starts it
 * by URL (src/cli/mujoco-node.ts); it imports nothing of the CLI's.
 */
import loadMujoco from '@mujoco/mujoco';
import { parentPort } from 'node:worker_threads';
import { serveEnvShard } from '../src/core/envs/shard-server';
import { registerBuiltInTasks } from '../src/tasks';

registerBuiltInTasks();

if (!parentPort) throw new Error('env-thread must run as a worker_thread');
const port = parentPort;
serveEnvShard(loadMujoco(), {
  postMessage: (message, transfer) => port.postMessage(message, transfer as never),
  onMessage: (handler) => {
    port.on('message', handler);
  },
  terminate: () => port.close(),
});
