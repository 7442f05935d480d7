/**
 * env.workers → how many env threads a host starts (DESIGN.md §5). 0 means one per
 * available core; no host gets more threads than envs, since a shard holds at least one env.
 */
import { ConfigError } from '../errors';

/**
 * Env threads for a batch of `numEnvs` envs on a machine with `availableCores` cores.
 * 0 asks for one per core; any count is capped at numEnvs. The command line steps a
 * result of 1 in its training thread: one shard would only add a message hop, since
 * the training thread waits on every chunk anyway.
 */
export function resolveEnvWorkers(requested: number, numEnvs: number, availableCores: number): number {
  if (!Number.isInteger(requested) || requested < 0) {
    throw new ConfigError('env.workers', `env.workers must be an integer ≥ 0 (0 = one per available core), got ${requested}`);
  }
  if (!Number.isInteger(numEnvs) || numEnvs < 1) {
    throw new ConfigError('num_envs', `num_envs must be a positive integer, got ${numEnvs}`);
  }
  const wanted = requested === 0 ? Math.max(1, Math.floor(availableCores)) : requested;
  return Math.min(wanted, numEnvs);
}
