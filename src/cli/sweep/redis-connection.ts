/**
 * The Redis server a distributed sweep runs through (DESIGN.md §11 "Executors"): BullMQ's queue
 * of runs, and the pretrained checkpoint the workers fetch once. One queue serves every sweep;
 * job ids carry the sweep's id, so two sweeps never share a run.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { UsageError } from '../cli-args';

export const SWEEP_QUEUE = 'flowtune-sweep';

/** host and port from `redis://host:port[/db]`; anything else is a UsageError (exit 2). */
export function parseRedisUrl(url: string): { host: string; port: number; db: number } {
  const match = /^redis:\/\/([^:/\s]+)(?::(\d+))?(?:\/(\d+))?\/?$/.exec(url);
  const port = match?.[2] === undefined ? 6379 : Number(match[2]);
  if (!match || !(port >= 1 && port <= 65535)) throw new UsageError('redis_url', `redis_url must look like redis://host:port (e.g. redis://127.0.0.1:6379), got '${url}'`);
  return { host: match[1], port, db: Number(match[3] ?? 0) };
}

/** Connection options for BullMQ: commands wait while reconnecting (BullMQ requires it), for a bounded number of tries. */
export function redisOptions(url: string): RedisOptions {
  return { ...parseRedisUrl(url), maxRetriesPerRequest: null, retryStrategy: (times) => (times > 5 ? null : Math.min(200 * times, 1000)) };
}

/** A plain client for our own keys (the checkpoint); fails fast with one sentence when the server cannot be reached. */
export async function connectRedis(url: string): Promise<Redis> {
  const client = new Redis({ ...parseRedisUrl(url), lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null, connectTimeout: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(`cannot reach Redis at ${url} (${(error as Error).message || 'connection refused'}); start redis-server there or fix redis_url`, { cause: error });
  }
  return client;
}

/** Rejects once, with one sentence, when any of the clients reports a lost connection. */
export function lostConnection(url: string, emitters: readonly { on(event: 'error', listener: (error: Error) => void): unknown }[]): Promise<never> {
  return new Promise((_, reject) => {
    for (const emitter of emitters) {
      emitter.on('error', (error: Error) => reject(new Error(`lost the connection to Redis at ${url} (${error.message}); finished runs are kept, and the same command resumes the sweep`)));
    }
  });
}
