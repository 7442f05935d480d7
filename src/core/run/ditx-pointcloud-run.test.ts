import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { changedParameters, tinyConfig, weightSnapshot } from '../rl/fixtures/test-support';
import { freshBundle } from './fresh-bundle';
import { Run } from './run';
import { runEnvConfig } from './run-env-config';
import { FlowLearner } from '../rl/flow-family';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});
const opened: InThreadBatchEnv[] = [];
afterAll(async () => {
  for (const env of opened) await env.dispose();
});

const DITX = ['policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=2', 'policy.ditx_heads=2', 'policy.encoder_hidden=16,16'];
const POINTCLOUD = ['task=pick-cube', 'env.obs_type=pointcloud', 'env.num_points=32'];

describe('DiT-X through real rollouts: the ratio invariant at lr = 0 (DESIGN.md §3 "Log-prob")', () => {
  for (const obs of ['state', 'pointcloud'] as const) {
    for (const method of ['sde', 'noise'] as const) {
      it(`${obs} × ${method}: ratio 1, clip fraction 0, weights unchanged`, async () => {
        const config = tinyConfig([...DITX, ...(obs === 'pointcloud' ? POINTCLOUD : []), 'actor_lr=0', 'critic_lr=0', `noise.method=${method}`, 'env.steps_per_iteration=3']);
        const env = new InThreadBatchEnv(mj, runEnvConfig(config, 'train', false));
        opened.push(env);
        const bundle = freshBundle(config, (await env.reset([1, 2, 3, 4])), env.obsDim, env.actionDim);
        expect(bundle.policy.options.velocityNet).toBe('ditx');
        expect(bundle.policy.options.obsEncoder).toBe(obs);
        const run = new Run({ learner: new FlowLearner(bundle, config), env, config, clock: () => 0 });
        try {
          const before = await weightSnapshot(bundle);
          const record = await run.step();
          expect(record['losses/clip_fraction']).toBe(0);
          expect(Math.abs(Number(record['losses/ratio_mean']) - 1)).toBeLessThan(1e-5);
          expect(Math.abs(Number(record['losses/ratio_max']) - 1)).toBeLessThan(1e-5);
          expect(record['losses/nonfinite_skips']).toBe(0);
          expect(Number(record['progress/env_steps'])).toBeGreaterThan(12);
          expect(changedParameters(before, await weightSnapshot(bundle))).toEqual([]);
        } finally {
          run.dispose();
          bundle.policy.dispose();
        }
      });
    }
  }

  it('a frozen point-cloud encoder keeps its weights while PPO moves the velocity net', async () => {
    const config = tinyConfig([...DITX, ...POINTCLOUD, 'actor_lr=1e-3', 'critic_lr=1e-3', 'env.steps_per_iteration=3']);
    const env = new InThreadBatchEnv(mj, runEnvConfig(config, 'train', false));
    opened.push(env);
    const bundle = freshBundle(config, await env.reset([1, 2, 3, 4]), env.obsDim, env.actionDim);
    const run = new Run({ learner: new FlowLearner(bundle, config), env, config, clock: () => 0 });
    try {
      const before = await weightSnapshot(bundle);
      await run.step();
      const changed = changedParameters(before, await weightSnapshot(bundle));
      expect(changed.some((name) => name.startsWith('velocity.'))).toBe(true);
      expect(changed.filter((name) => name.startsWith('encoder.'))).toEqual([]);
    } finally {
      run.dispose();
      bundle.policy.dispose();
    }
  });
});
