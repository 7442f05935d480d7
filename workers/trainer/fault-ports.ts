/**
 * Env shard ports that remember whether their worker died, so a crashed env
 * worker can be told apart from a bad request; test builds can also kill one.
 */
import type { ShardPort } from '../../src/core/envs/shard-protocol';
import { openBrowserShardPort } from '../env-pool';

export interface WatchedPort extends ShardPort {
  readonly dead: boolean;
  /** Terminates the worker and reports it as crashed (fault injection). */
  kill(): void;
}

export function openWatchedPort(): WatchedPort {
  const port = openBrowserShardPort();
  const errorHandlers: ((error: Error) => void)[] = [];
  let dead = false;
  const fail = (error: Error) => {
    if (dead) return;
    dead = true;
    for (const handler of errorHandlers) handler(error);
  };
  port.onError?.(fail);
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
    kill: () => {
      void port.terminate();
      fail(new Error('the worker was terminated'));
    },
  };
}
