/**
 * How many envs one MuJoCo instance can hold. Each env thread (and the training thread, when it
 * steps envs itself) loads its own MuJoCo wasm module, whose memory can grow to 2 GiB: past that,
 * mj_makeData fails with "MuJoCo Error: Could not allocate memory". Every env's MjData takes its
 * arena (stack and contacts) and its buffer of fixed-size arrays from that memory; for the
 * shipped tasks that is about 13 to 14 MiB, so one thread holds about 150 envs.
 */
import { ConfigError } from '../errors';

/** The memory limit of @mujoco/mujoco's wasm build ("Cannot enlarge memory … the limit is 2147483648 bytes"). */
export const MUJOCO_MEMORY_BYTES = 2 ** 31;

/**
 * Kept back for the compiled model, the scene's own buffers and the allocator: measured on reach,
 * 155 MjData fit where the arena sizes alone would allow 157, and this leaves room for a few more.
 */
const RESERVED_BYTES = 64 * 2 ** 20;

/** The sizes mj_makeData allocates for one env of a compiled model. */
export interface DataSizes {
  readonly narena: number;
  readonly nbuffer: number;
}

/** Bytes of MuJoCo memory one env of this model takes. */
export function bytesPerEnv(model: DataSizes): number {
  return model.narena + model.nbuffer;
}

/** Envs of this model one MuJoCo instance can hold. */
export function envCapacity(model: DataSizes): number {
  return Math.floor((MUJOCO_MEMORY_BYTES - RESERVED_BYTES) / bytesPerEnv(model));
}

const mebibytes = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/** The ConfigError for `numEnvs` envs of `task` in one thread, which holds at most `capacity`. */
export function envCapacityError(task: string, numEnvs: number, capacity: number, model: DataSizes): ConfigError {
  return new ConfigError('num_envs', `one env thread was asked for ${numEnvs} ${task} envs, but MuJoCo's 2 GiB of memory per thread holds about ${capacity} `
    + `(${mebibytes(bytesPerEnv(model))} MiB each); lower num_envs or raise env.workers so that num_envs / env.workers ≤ ${capacity} (for evaluation, lower eval_episodes or the batch)`);
}

/** The ConfigError for a thread whose MuJoCo memory ran out after `made` of `numEnvs` envs, the rest held by envs opened before. */
export function envMemoryExhaustedError(task: string, numEnvs: number, made: number, model: DataSizes): ConfigError {
  return new ConfigError('num_envs', `one env thread ran out of MuJoCo's 2 GiB of memory after ${made} of ${numEnvs} ${task} envs (${mebibytes(bytesPerEnv(model))} MiB each, `
    + 'beside the envs it already held); lower num_envs or raise env.workers (for evaluation, lower eval_episodes or the batch)');
}

/** True for the error MuJoCo raises when its memory cannot grow. */
export function isMujocoOutOfMemory(error: unknown): boolean {
  return error instanceof Error && /Could not allocate memory/.test(error.message);
}
