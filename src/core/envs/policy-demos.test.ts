import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { smallConfig } from '../run/fixtures/test-checkpoints';
import { runPretrainStage } from '../run/pretrain-stage';
import { InThreadBatchEnv } from './in-thread-batch-env';
import { demoMetadataFor } from './demo-format';
import type { Mujoco } from './mujoco-types';
import { observationSpec } from './observation';
import { collectPolicyDemos } from './policy-demos';
import { getTask } from './task-registry';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});

describe('collectPolicyDemos', () => {
  it('stores whole episodes until the step count is reached, with the clipped actions the env ran', async () => {
    // Full-scale torques of alternating sign (2 is clipped to 1): hopper falls within tens of steps.
    const demos = await collectPolicyDemos(mj, {
      task: 'hopper', steps: 150, seed: 3, numEnvs: 4,
      act: async (obs) => Float32Array.from({ length: (obs.length / 11) * 3 }, (_, index) => (index % 2 === 0 ? 2 : -1)),
    });
    const episodes = demos.success.length;
    const rows = demos.episodeStarts[episodes];
    expect(rows).toBeGreaterThanOrEqual(150);
    // Whole episodes only: the last one stored took the total past 150, so without it there were fewer.
    expect(demos.episodeStarts[episodes - 1]).toBeLessThan(150);
    expect(demos.obs.length).toBe(rows * 11);
    expect(demos.actions.length).toBe(rows * 3);
    expect(demos.rewards.length).toBe(rows);
    expect(Math.max(...demos.actions)).toBe(1);
    expect(Math.min(...demos.actions)).toBe(-1);
    // Every episode ended by falling (terminated) or the cap, each from its own reset seed.
    expect(new Set(demos.seeds).size).toBe(episodes);
    // Each fell well before hopper's 1000-step limit, and says so.
    expect([...demos.terminated!]).toEqual(Array.from({ length: episodes }, () => 1));
  }, 60_000);

  it('makes demos BC learns from on a task measured by return (every episode, none "successful")', async () => {
    const demos = await collectPolicyDemos(mj, { task: 'hopper', steps: 200, seed: 0, numEnvs: 2, act: async (obs) => new Float32Array((obs.length / 11) * 3) });
    expect(demos.success.every((flag) => flag === 0)).toBe(true);
    const task = getTask('hopper');
    const metadata = demoMetadataFor(demos, { seed: 0, noise: 0, obsSlices: observationSpec(task, 'state', 0).slices, maxEpisodeSteps: task.maxEpisodeSteps, controlMode: 'default' });
    const config = smallConfig(['task=hopper', 'policy.n_obs_steps=1', 'pretrain.steps=2', 'eval_episodes=0', 'eval.every=0', 'eval.record_episodes=0']);
    const result = await runPretrainStage({
      config, demos: { demos, metadata, source: "demos file 'hopper.demos'" },
      ports: { openEnv: async (envConfig) => new InThreadBatchEnv(mj, envConfig), clock: () => 0 },
    });
    expect(result.samples).toBe(demos.episodeStarts[demos.success.length]);
  }, 60_000);
});
