import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { applyOverrides, presetConfig } from '../config';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { TrainingError } from '../errors';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { bundleContents } from '../checkpoint/policy-checkpoint';
import { freshBundle } from '../rl/fixtures/test-support';
import { PICK_CUBE_STATE, smallConfig } from '../run/fixtures/test-checkpoints';
import { openCheckpoint } from '../run/open-checkpoint';
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

  it('gives an image config\'s env k its camera images of the seeded reset, and a fresh image policy on the cameras the env resolved', async () => {
    const inputs = new IdleChainInputs(async (envConfig) => new InThreadBatchEnv(mj, envConfig));
    const size = 12;
    const config = smallConfig(['env.obs_type=rgb', `env.image_size=${size}`, 'policy.n_obs_steps=1', 'policy.cnn_channels=4', 'policy.image_features=8', 'num_envs=3']);
    const input = await inputs.input(config, 2);
    expect(input.images).toHaveLength(size * size * 3);
    const env = new InThreadBatchEnv(mj, { task: config.task, numEnvs: 3, obsMode: 'rgb', imageSize: size, recordEpisodes: false });
    try {
      const obs = await env.reset([config.seed, config.seed + 1, config.seed + 2]);
      expect(input.obs).toEqual(obs.subarray(2 * env.obsDim, 3 * env.obsDim));
      expect(Buffer.from(input.images!).equals(Buffer.from(env.images!().subarray(2 * size * size * 3)))).toBe(true);
    } finally {
      await env.dispose();
    }
    // State observations carry no images.
    expect((await inputs.input(smallConfig(), 0)).images).toBeUndefined();
    const policy = await inputs.policy(config, undefined);
    expect(policy.bundle.policy.options.image).toMatchObject({ cameras: ['front'], size, channels: 3 });
    inputs.dispose();
  });

  it('builds a fresh flow policy once, and says in one sentence that a Gaussian policy has no chain', async () => {
    const inputs = new IdleChainInputs(async (envConfig) => new InThreadBatchEnv(mj, envConfig));
    const config = smallConfig();
    const policy = await inputs.policy(config, undefined);
    expect(policy.kind).toBe('flow');
    expect(await inputs.policy(config, undefined)).toBe(policy);
    const gaussian = applyOverrides(presetConfig('gaussian-ppo'), ['task=hopper']);
    await expect(inputs.policy(gaussian, undefined)).rejects.toThrow(TrainingError);
    await expect(inputs.policy(gaussian, undefined)).rejects.toThrow('a gaussian policy has no denoising chain to sample or inspect');
    inputs.dispose();
  });

  it('builds a diffusion policy: a fresh one is its own base; a fine-tuned checkpoint brings the base net it stores', async () => {
    const inputs = new IdleChainInputs(async (envConfig) => new InThreadBatchEnv(mj, envConfig));
    const config = smallConfig(['policy.kind=diffusion', 'policy.denoise_steps=4', 'dppo.ft_denoising_steps=2']);
    const fresh = await inputs.policy(config, undefined);
    expect(fresh.kind).toBe('diffusion');
    expect(fresh.kind === 'diffusion' && fresh.base).toBeUndefined();
    expect(fresh.bundle.policy.options.prediction).toBe('epsilon');

    // A "fine-tuned" checkpoint: the policy's weights, and another net's as the stored base.
    const tuned = freshBundle(config, PICK_CUBE_STATE, 4, 3);
    const base = freshBundle(config, PICK_CUBE_STATE, 4, 4);
    try {
      const baseWeights = await base.policy.getWeights();
      const bytes = encodeFlowtune(await bundleContents({ bundle: tuned, task: config.task, stage: 'ppo', config, reference: baseWeights }));
      const { checkpoint, config: opened } = openCheckpoint({ kind: 'flowtune', name: 'tuned.flowtune', bytes }, config);
      expect(checkpoint.kind).toBe('diffusion');
      const selected = await inputs.policy(opened, checkpoint);
      expect(selected.kind === 'diffusion' && selected.base).toBeTruthy();
      if (selected.kind !== 'diffusion' || !selected.base) return;
      const restored = await selected.base.getWeights();
      for (const [name, entry] of baseWeights) expect(restored.get(name)?.data, name).toEqual(entry.data);
      // The live policy is the checkpoint's own weights, not the base's.
      const live = await selected.bundle.policy.getWeights();
      const tunedWeights = await tuned.policy.getWeights();
      for (const [name, entry] of tunedWeights) expect(live.get(name)?.data, name).toEqual(entry.data);
    } finally {
      tuned.policy.dispose();
      base.policy.dispose();
      inputs.dispose();
    }
  });
});
