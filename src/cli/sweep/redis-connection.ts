/**
 * The Redis server a distributed sweep runs through (DESIGN.md §11 "Executors", §15): BullMQ's queue
 * of runs, and the pretrained checkpoint the workers fetch once. One queue serves every sweep;
 * job ids carry the sweep's id, so two sweeps never share a run. Connections take a password
 * (in the URL or from REDIS_PASSWORD) and TLS (`rediss://`, with `tls_ca=FILE` for a private CA);
 * no message ever shows the password.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';
import { UsageError } from '../cli-args';

export const SWEEP_QUEUE = 'flowtune-sweep';

/** The environment variable a password may come from, so it stays out of shell history and `ps`. */
export const REDIS_PASSWORD_ENV = 'REDIS_PASSWORD';

/** Where a sweep's Redis is and how to log in: everything parsed from redis_url, REDIS_PASSWORD and tls_ca. */
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** PEM bytes of the CA that signed the server's certificate (a private CA); the system's CAs otherwise. */
  ca?: Buffer;
  /** The URL with any password replaced by ***: the only form messages print. */
  display: string;
}

const URL_SHAPE = 'redis://[user:password@]host[:port][/db] or rediss://… for TLS (e.g. redis://127.0.0.1:6379)';

function badUrl(display: string, why: string): UsageError {
  return new UsageError('redis_url', `redis_url ${why}; it must look like ${URL_SHAPE}, got '${display}'`);
}

/** The URL as messages may show it: the password part of `user:pass@` becomes ***. */
export function redactRedisUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/)([^@/]*)@/i, (_, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    // `redis://secret@host` is the password alone, as redis-cli reads it.
    return `${scheme}${colon >= 0 ? `${userinfo.slice(0, colon)}:***` : '***'}@`;
  });
}

/**
 * Parses redis_url (and the password from `env.REDIS_PASSWORD` when the URL has none); anything
 * else is a UsageError (exit 2) whose message never holds the password.
 */
export function parseRedisUrl(url: string, options: { env?: NodeJS.ProcessEnv; tlsCa?: string } = {}): RedisTarget {
  const display = redactRedisUrl(url);
  const match = /^(rediss?):\/\/(?:([^:@/\s]*)(?::([^@/\s]*))?@)?([^:@/\s]+|\[[0-9a-f:]+\])(?::(\d+))?(?:\/(\d+))?\/?$/i.exec(url);
  if (!match) throw badUrl(display, 'is malformed');
  const [, scheme, user, pass, host, portText, dbText] = match;
  const port = portText === undefined ? 6379 : Number(portText);
  if (!(port >= 1 && port <= 65535)) throw badUrl(display, `has port ${portText}, outside 1–65535`);
  const db = Number(dbText ?? 0);
  if (!(db >= 0 && db <= 15)) throw badUrl(display, `has database ${dbText}, outside 0–15`);
  // redis://secret@host: a lone user part is the password (redis-cli and ioredis read it so).
  const password = decodeUrlPart(pass ?? (user && pass === undefined ? user : undefined)) ?? (options.env?.[REDIS_PASSWORD_ENV] || undefined);
  const username = pass !== undefined && user ? decodeUrlPart(user) : undefined;
  const tls = scheme.toLowerCase() === 'rediss';
  let ca: Buffer | undefined;
  if (options.tlsCa) {
    if (!tls) throw new UsageError('tls_ca', `tls_ca does nothing without TLS; use a rediss:// URL (got '${display}')`);
    try {
      ca = readFileSync(options.tlsCa);
    } catch (error) {
      throw new UsageError('tls_ca', `tls_ca file '${options.tlsCa}' cannot be read (${(error as { code?: string }).code ?? 'unknown error'})`);
    }
  }
  return { host: host.replace(/^\[|\]$/g, ''), port, db, username, password, tls, ca, display };
}

function decodeUrlPart(part: string | undefined): string | undefined {
  if (part === undefined || part === '') return undefined;
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function baseOptions(target: RedisTarget): RedisOptions {
  const options: RedisOptions = { host: target.host, port: target.port, db: target.db };
  if (target.username) options.username = target.username;
  if (target.password) options.password = target.password;
  // SNI takes host names only; certificates for an IP are checked against its IP SAN without it.
  if (target.tls) options.tls = { ...(isIP(target.host) ? {} : { servername: target.host }), ...(target.ca ? { ca: target.ca } : {}) };
  return options;
}

/** Connection options for BullMQ: commands wait while reconnecting (BullMQ requires it), for a bounded number of tries. */
export function redisOptions(target: RedisTarget): RedisOptions {
  return { ...baseOptions(target), maxRetriesPerRequest: null, retryStrategy: (times) => (times > 5 ? null : Math.min(200 * times, 1000)) };
}

/** A Redis error in words a user can act on; never the password. */
function connectionProblem(error: Error): string {
  const message = error.message || 'connection refused';
  if (/NOAUTH|WRONGPASS|invalid password|invalid username-password/i.test(message)) {
    return `the server refused the login (${message.split('\n')[0]}); give the password in redis_url or ${REDIS_PASSWORD_ENV}`;
  }
  if (/certificate|self.signed|SSL|TLS|EPROTO|wrong version number/i.test(message)) {
    return `TLS failed (${message}); use rediss:// for a TLS port, redis:// for a plain one, and tls_ca=FILE for a private CA`;
  }
  return message;
}

/** A plain client for our own keys (the checkpoint); fails fast with one sentence when the server cannot be reached. */
export async function connectRedis(target: RedisTarget): Promise<Redis> {
  const client = new Redis({ ...baseOptions(target), lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null, connectTimeout: 5000 });
  let lastError: Error | undefined;
  client.on('error', (error: Error) => { lastError = error; });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    // The 'error' event carries the reason (a refused login, a TLS failure); the rejection often only says the connection closed.
    const cause = lastError ?? (error as Error);
    throw new Error(`cannot reach Redis at ${target.display} (${connectionProblem(cause)}); start redis-server there or fix redis_url`, { cause: error });
  }
  return client;
}

/** Rejects once, with one sentence, when any of the clients reports a lost connection. */
export function lostConnection(target: RedisTarget, emitters: readonly { on(event: 'error', listener: (error: Error) => void): unknown }[]): Promise<never> {
  return new Promise((_, reject) => {
    for (const emitter of emitters) {
      emitter.on('error', (error: Error) => reject(new Error(`lost the connection to Redis at ${target.display} (${connectionProblem(error)}); finished runs are kept, and the same command resumes the sweep`)));
    }
  });
}
