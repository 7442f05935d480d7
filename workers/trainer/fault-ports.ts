/**
 * Env shard ports that remember whether their worker died, so a crashed env
 * worker can be told apart from a bad request.
 */
import type { ShardPort } from '../../src/core/envs/shard-protocol';
import { openBrowserShardPort } from '../env-pool';

export interface WatchedPort extends ShardPort {
  readonly dead: boolean;
}

export function openWatchedPort(port: ShardPort = openBrowserShardPort()): WatchedPort {
  const errorHandlers: ((error: Error) => void)[] = [];
  let dead = false;
  port.onError?.((error) => {
    if (dead) return;
    dead = true;
    for (const handler of errorHandlers) handler(error);
  });
  return {
    get dead() {
      return dead;
    },
    postMessage: (message, transfer) => port.postMessage(message, transfer),
    onMessage: (handler) => port.onMessage(handler),
    onError: (handler) => {
      errorHandlers.push(handler);
    },
    terminate: () => port.terminate(),
  };
}
