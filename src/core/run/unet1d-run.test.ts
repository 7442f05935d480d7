/**
 * The UNet1D velocity net through the recipe (DESIGN.md §19): BC on expert demos, then one PPO iteration from that
 * checkpoint, for the flow family (velocity with the step-size input) and the diffusion family (ε, no step size).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { decodePolicyCheckpoint } from '../checkpoint/fixtures/decode-bytes';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { defaultConfig } from '../config';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import type { MetricRecord } from '../metrics/metric-keys';
import { changedParameters } from '../rl/fixtures/test-support';
import { runConfigForCheckpoint } from './checkpoint-run-config';
import { reachDemos, reachStageConfig } from './fixtures/stage-demos';
import { openRun } from './open-run';
import { runPretrainStage, type StageDemos } from './pretrain-stage';
import type { RunPorts } from './run-ports';

let mj: Mujoco;
let demos: StageDemos;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
  demos = reachDemos(mj, 3);
});

const UNET = ['policy.velocity_net=unet1d', 'policy.unet_dims=8,16', 'policy.unet_kernel=3', 'policy.unet_groups=4'];
/** One PPO iteration of 4 envs × 2 decisions, no critic warm-up and no evaluation. */
const PPO = ['num_envs=4', 'env.steps_per_iteration=2', 'ppo.epochs=1', 'ppo.critic_warmup_steps=0', 'eval.every=0', 'iterations=1', 'total_env_steps=0', 'env.max_episode_steps=4'];
const DIFFUSION = ['policy.kind=diffusion', 'policy.denoise_steps=6', 'dppo.ft_denoising_steps=3'];
const ports = (): RunPorts => ({ openEnv: async (config) => new InThreadBatchEnv(mj, config), clock: () => 0 });

/** BC for `steps` steps; the loss windows it reported and the saved checkpoint's bytes. */
async function pretrain(extra: string[], steps: number): Promise<{ losses: number[]; bytes: Uint8Array }> {
  const losses: number[] = [];
  const config = reachStageConfig([...UNET, ...extra, `pretrain.steps=${steps}`, 'pretrain.batch_size=16', 'pretrain.lr=3e-3', 'eval_episodes=0']);
  const result = await runPretrainStage({ config, demos, ports: { openEnv: async (env) => new InThreadBatchEnv(mj, env), clock: () => 0, progressReports: 4, onProgress: (_, loss) => losses.push(loss) } });
  return { losses, bytes: encodeFlowtune(result.contents) };
}

/** One PPO iteration from the BC checkpoint with `overrides`: its metric record and the weights before and after. */
async function ppoIteration(bytes: Uint8Array, overrides: string[]): Promise<{ record: MetricRecord; before: Map<string, Float32Array>; after: Map<string, Float32Array>; kind: string }> {
  const checkpoint = decodePolicyCheckpoint(bytes, { expectedTask: 'reach' });
  const config = runConfigForCheckpoint(defaultConfig(), checkpoint.metadata, ['task=reach', ...PPO, ...overrides]);
  expect(config.policy.velocity_net).toBe('unet1d');
  const before = new Map([...checkpoint.tensors].map(([name, entry]) => [name, entry.data.slice()]));
  const opened = await openRun(config, checkpoint, ports());
  try {
    const record = await opened.run.step();
    const after = new Map([...(await opened.run.contents()).tensors].map(([name, entry]) => [name, Float32Array.from(entry.data)]));
    return { record, before, after, kind: checkpoint.kind };
  } finally {
    await opened.close();
  }
}

describe('UNet1D: BC, then one PPO iteration', () => {
  it('flow family: BC lowers the loss; PPO recomputes the stored log-probs (ratio 1 at lr 0, sde and learned noise) and moves the net at lr > 0', async () => {
    const { losses, bytes } = await pretrain([], 40);
    expect(losses.every(Number.isFinite)).toBe(true);
    expect(losses[losses.length - 1]).toBeLessThan(losses[0]);
    for (const method of ['sde', 'noise']) {
      const { record, before, after, kind } = await ppoIteration(bytes, ['actor_lr=0', 'critic_lr=0', `noise.method=${method}`, 'ppo.minibatch_size=4']);
      expect(kind).toBe('flow');
      expect(Math.abs(Number(record['losses/ratio_mean']) - 1), method).toBeLessThan(1e-5);
      expect(Math.abs(Number(record['losses/ratio_max']) - 1), method).toBeLessThan(1e-5);
      expect(record['losses/clip_fraction']).toBe(0);
      expect(changedParameters(before, after)).toEqual([]);
    }
    const { record, before, after } = await ppoIteration(bytes, ['actor_lr=1e-3', 'critic_lr=1e-3', 'noise.method=noise', 'ppo.minibatch_size=4']);
    expect(record['losses/nonfinite_skips']).toBe(0);
    const moved = changedParameters(before, after);
    expect(moved.some((name) => name.startsWith('velocity.up.'))).toBe(true);
    expect(moved.some((name) => name.startsWith('noise_head.'))).toBe(true);
    // The time embedding still learns, through the velocity loss (the noise head's gradient stops at it).
    expect(moved.some((name) => name.startsWith('velocity.time.'))).toBe(true);
  }, 180_000);

  it('diffusion family: BC of the ε net lowers the loss; DPPO recomputes the stored log-probs (ratio 1 at lr 0) and moves the net at lr > 0', async () => {
    const { losses, bytes } = await pretrain(DIFFUSION, 40);
    expect(losses[losses.length - 1]).toBeLessThan(losses[0]);
    // 8 decisions × 3 fine-tuned steps = 24 samples per update.
    const still = await ppoIteration(bytes, ['actor_lr=0', 'critic_lr=0', 'ppo.minibatch_size=8', 'dppo.ft_denoising_steps=3']);
    expect(still.kind).toBe('diffusion');
    expect(Math.abs(Number(still.record['losses/ratio_mean']) - 1)).toBeLessThan(1e-5);
    expect(still.record['losses/clip_fraction']).toBe(0);
    const { record, before, after } = await ppoIteration(bytes, ['actor_lr=1e-3', 'critic_lr=1e-3', 'ppo.minibatch_size=8', 'dppo.ft_denoising_steps=3']);
    expect(Number.isFinite(Number(record['losses/policy']))).toBe(true);
    expect(changedParameters(before, after).some((name) => name.startsWith('velocity.mid.'))).toBe(true);
  }, 180_000);
});
