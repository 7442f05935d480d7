/**
 * Node worker_thread entry for one env shard: loads MuJoCo and serves
 * ShardRequests from the parent (see src/core/envs/shard-server.ts).
 */
import { parentPort } from 'node:worker_threads';
import { loadMujocoNode } from '../src/cli/mujoco-node';
import { serveEnvShard } from '../src/core/envs/shard-server';

if (!parentPort) throw new Error('env-thread must run as a worker_thread');
const port = parentPort;
serveEnvShard(loadMujocoNode(), {
  postMessage: (message, transfer) => port.postMessage(message, transfer as never),
  onMessage: (handler) => {
    port.on('message', handler);
  },
  terminate: () => port.close(),
});
