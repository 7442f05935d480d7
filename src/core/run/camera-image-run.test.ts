import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { nodeRunPorts } from '../../cli/node-run-ports';
import { RunFolderStore } from '../../cli/run-folder-store';
import { applyOverrides, defaultConfig, validateConfig } from '../config';
import { RayCastImageSource } from '../envs/camera/ray-cast-image-source';
import { VectorEnv } from '../envs/vector-env';
import type { Mujoco } from '../envs/mujoco-types';
import { openRun } from './open-run';
import { runEnvConfig } from './run-env-config';
import { trainLoop } from './run-loop';

let mj: Mujoco;
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-camera-run-'));
const SIZE = 16;

beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A tiny UNet1D image policy on pick-cube's front camera, its 2 training envs in 2 worker threads. */
const config = validateConfig(applyOverrides(defaultConfig(), [
  'task=pick-cube', 'env.obs_type=rgb', 'env.camera=front', `env.image_size=${SIZE}`, 'policy.n_obs_steps=1', 'policy.cnn_channels=4,4', 'policy.image_features=8',
  'policy.velocity_net=unet1d', 'policy.unet_dims=8,16', 'policy.unet_groups=4', 'policy.horizon=4', 'policy.n_action_steps=2', 'policy.denoise_steps=2',
  'policy.value_hidden=8', 'policy.noise_head_hidden=8', 'num_envs=2', 'env.workers=2', 'env.steps_per_iteration=3', 'env.max_episode_steps=5',
  'ppo.minibatch_size=3', 'ppo.epochs=1', 'ppo.critic_warmup_steps=0', 'eval_episodes=2', 'eval.every=1', 'seed=4', 'total_env_steps=0', 'iterations=1',
]));

describe('an image policy on the ray-cast camera (no stand-in)', () => {
  it('gets the same front-camera pixels from env worker threads as the renderer gives in this thread', async () => {
    const ports = nodeRunPorts(config);
    const env = await ports.openEnv(runEnvConfig(config, 'train', false), 'train');
    const local = new VectorEnv(mj, runEnvConfig(config, 'train', false));
    const source = new RayCastImageSource({ mj, model: local.scene.model, cameras: ['front'], size: SIZE, channels: 3 });
    try {
      expect(env.imageSpec).toEqual({ cameras: ['front'], size: SIZE, channels: 3 });
      await env.reset([3, 9]);
      local.reset([3, 9]);
      const images = env.images!();
      const expected = new Uint8Array(2 * SIZE * SIZE * 3);
      for (let envIndex = 0; envIndex < 2; envIndex++) source.render(local.scene.model, local.env(envIndex).data, expected, envIndex * SIZE * SIZE * 3);
      expect(Buffer.from(images).equals(Buffer.from(expected))).toBe(true);
    } finally {
      source.delete();
      local.dispose();
      await env.dispose();
    }
  }, 60_000);

  it('trains one PPO iteration from a fresh policy, evaluating on the same camera', async () => {
    const { run, close } = await openRun(config, undefined, nodeRunPorts(config));
    try {
      await trainLoop(run, new RunFolderStore(path.join(dir, 'run'), config, run.history, 'wasm'), {});
      expect(run.history).toHaveLength(1);
      for (const key of ['losses/policy', 'losses/value', 'eval/episode_return'] as const) expect(Number.isFinite(run.history[0][key])).toBe(true);
    } finally {
      await close();
    }
  }, 120_000);
});
