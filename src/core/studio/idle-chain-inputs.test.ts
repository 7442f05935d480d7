import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { applyOverrides, presetConfig } from '../config';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { TrainingError } from '../errors';
import { smallConfig } from '../run/fixtures/test-checkpoints';
import { IdleChainInputs } from './idle-chain-inputs';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('cpu');
  mj = await loadMujocoNode();
});

describe('IdleChainInputs (the chain view with no run)', () => {
  it('gives env k\'s stacked observation of the seeded reset, opening envs once per config', async () => {
    let opened = 0;
    const inputs = new IdleChainInputs(async (envConfig) => {
      opened++;
      return new InThreadBatchEnv(mj, envConfig);
    });
    const config = smallConfig(['policy.n_obs_steps=2']);
    const first = await inputs.observation(config, 1);
    const again = await inputs.observation(config, 1);
    expect(opened).toBe(1);
    expect(again).toEqual(first);
    // Two stacked frames of the 39-value pick-cube state; at a reset both are the first observation.
    expect(first.length).toBe(2 * 39);
    expect(first.subarray(0, 39)).toEqual(first.subarray(39));
    // Env 1 resets with seed + 1: its observation is env 1's of a fresh reset with those seeds.
    const env = new InThreadBatchEnv(mj, { task: config.task, numEnvs: config.num_envs, recordEpisodes: false });
    try {
      const obs = await env.reset(Array.from({ length: config.num_envs }, (_, envIndex) => config.seed + envIndex));
      expect(first.subarray(0, 39)).toEqual(obs.subarray(39, 78));
    } finally {
      await env.dispose();
    }
  });

  it('builds a fresh flow policy once, and says in one sentence that a Gaussian policy has no chain', async () => {
    const inputs = new IdleChainInputs(async (envConfig) => new InThreadBatchEnv(mj, envConfig));
    const config = smallConfig();
    const bundle = await inputs.bundle(config, undefined);
    expect(await inputs.bundle(config, undefined)).toBe(bundle);
    const gaussian = applyOverrides(presetConfig('gaussian-ppo'), ['task=hopper']);
    await expect(inputs.bundle(gaussian, undefined)).rejects.toThrow(TrainingError);
    await expect(inputs.bundle(gaussian, undefined)).rejects.toThrow('a gaussian policy has no denoising chain to sample or inspect');
    inputs.dispose();
  });
});
