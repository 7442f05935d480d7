import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { ConfigError } from '../errors';
import { envCapacity } from './env-memory';
import type { Mujoco } from './mujoco-types';
import { VectorEnv } from './vector-env';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

/** The error `open` throws, or undefined. */
function thrown(open: () => void): Error | undefined {
  try {
    open();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe('envs per MuJoCo instance', () => {
  it('refuses more envs than one thread\'s MuJoCo memory holds before allocating any, naming num_envs and env.workers', () => {
    const error = thrown(() => new VectorEnv(mj, { task: 'reach', numEnvs: 4096, recordEpisodes: false }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe('num_envs');
    expect(error!.message).toMatch(
      /^one env thread was asked for 4096 reach envs, but MuJoCo's 2 GiB of memory per thread holds about (\d+) \(\d+\.\d MiB each\); lower num_envs or raise env\.workers so that num_envs \/ env\.workers ≤ \1 \(for evaluation, lower eval_episodes or the batch\)$/,
    );
  });

  it('fits as many envs as it claims, and a thread that then runs out says so instead of a bare MuJoCo error', () => {
    // peg-insertion has the largest MjData of the shipped tasks.
    const probe = new VectorEnv(mj, { task: 'peg-insertion', numEnvs: 1, recordEpisodes: false });
    const capacity = envCapacity(probe.scene.model);
    probe.dispose();
    expect(capacity).toBeGreaterThan(100);
    const full = new VectorEnv(mj, { task: 'peg-insertion', numEnvs: capacity, recordEpisodes: false });
    try {
      const error = thrown(() => new VectorEnv(mj, { task: 'peg-insertion', numEnvs: 40, recordEpisodes: false }));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error!.message).toMatch(
        /^one env thread ran out of MuJoCo's 2 GiB of memory after \d+ of 40 peg-insertion envs \(\d+\.\d MiB each, beside the envs it already held\); lower num_envs or raise env\.workers \(for evaluation, lower eval_episodes or the batch\)$/,
      );
    } finally {
      full.dispose();
    }
  }, 120_000);
});
