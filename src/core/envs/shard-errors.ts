import { ConfigError, EnvError, ShapeError } from '../errors';
import type { ShardErrorPayload } from './shard-protocol';

/** Rebuilds a named error from a worker (instanceof does not survive the trip). */
export function rebuildShardError(payload: ShardErrorPayload, envOffset: number): Error {
  if (payload.name === 'EnvError') {
    return new EnvError(payload.message, payload.envIndex === undefined ? undefined : payload.envIndex + envOffset);
  }
  if (payload.name === 'ConfigError') return new ConfigError(payload.field ?? 'config', payload.message);
  if (payload.name === 'ShapeError') return new ShapeError(payload.field ?? 'input', payload.message);
  const error = new Error(payload.message);
  error.name = payload.name;
  return error;
}
