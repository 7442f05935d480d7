/**
 * BC from a D4RL-format file equals BC from the same rollouts as native demos: rollouts of our own
 * Gaussian hopper expert (public/checkpoints/hopper-gaussian.flowtune) are written in D4RL's
 * layout with h5wasm (terminals and timeouts from how each episode ended), imported, and compared
 * field by field, then two BC steps from each.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { parseCheckpointFile } from '../checkpoint/checkpoint-file';
import { applyOverrides, defaultConfig } from '../config';
import { demoMetadataFor, type DemoMetadata } from '../envs/demo-format';
import type { Demonstrations } from '../envs/expert-rollout';
import type { Mujoco } from '../envs/mujoco-types';
import { observationSpec } from '../envs/observation';
import { collectPolicyDemos } from '../envs/policy-demos';
import { getTask } from '../envs/task-registry';
import { decodeGaussianCheckpoint } from '../gaussian/gaussian-checkpoint';
import { gaussianBundle, LoadedGaussianPolicy } from '../gaussian/gaussian-family';
import { createRng } from '../random';
import { smallConfig } from '../run/fixtures/test-checkpoints';
import { runPretrainStage } from '../run/pretrain-stage';
import { importDataset } from './import-dataset';
import { d4rlEntries, writeHdf5 } from './fixtures/write-hdf5';

let mj: Mujoco;
let native: { demos: Demonstrations; metadata: DemoMetadata };

beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
  const file = parseCheckpointFile({ kind: 'flowtune', name: 'hopper-gaussian.flowtune', bytes: new Uint8Array(readFileSync('public/checkpoints/hopper-gaussian.flowtune')) }, { expectedTask: 'hopper' });
  const checkpoint = decodeGaussianCheckpoint(file, { obsDim: 11, actionDim: 3 });
  const expert = new LoadedGaussianPolicy(gaussianBundle(applyOverrides(defaultConfig(), ['task=hopper', `policy.gaussian_hidden=${checkpoint.options.hidden.join(',')}`]), 11, 3, checkpoint));
  try {
    // μ + σ·ε, as D4RL's datasets were sampled; this expert falls within a few hundred steps.
    const rollouts = await collectPolicyDemos(mj, { task: 'hopper', steps: 1200, seed: 5, numEnvs: 2, act: expert.samplingActor(createRng(5)) });
    // Its episodes all fall, so the last is cut to 150 steps as a time limit would cut it: a truncated one, for D4RL's timeouts.
    const demos = cutLastEpisode(rollouts, 150);
    const task = getTask('hopper');
    native = { demos, metadata: demoMetadataFor(demos, { seed: 0, noise: 0, obsSlices: observationSpec(task, 'state').slices, maxEpisodeSteps: task.maxEpisodeSteps, controlMode: 'default' }) };
  } finally {
    expert.dispose();
  }
}, 120_000);

/** `demos` with its last episode ended after `steps` steps, truncated. */
function cutLastEpisode(demos: Demonstrations, steps: number): Demonstrations {
  const episodes = demos.success.length;
  const rows = demos.episodeStarts[episodes - 1] + steps;
  expect(rows).toBeLessThan(demos.episodeStarts[episodes]);
  const episodeStarts = demos.episodeStarts.slice();
  episodeStarts[episodes] = rows;
  const terminated = demos.terminated!.slice();
  terminated[episodes - 1] = 0;
  return {
    ...demos, obs: demos.obs.slice(0, rows * demos.obsDim), actions: demos.actions.slice(0, rows * demos.actionDim), rewards: demos.rewards.slice(0, rows),
    episodeStarts, terminated,
  };
}

/** Stage 1 for two steps on `demos`: the loss of each step and the trained weights. */
async function twoBcSteps(demos: { demos: Demonstrations; metadata: DemoMetadata }) {
  const config = smallConfig(['task=hopper', 'policy.n_obs_steps=1', 'pretrain.steps=2', 'pretrain.batch_size=64', 'eval_episodes=0', 'eval.every=0', 'eval.record_episodes=0']);
  const losses: number[] = [];
  const result = await runPretrainStage({
    config, demos: { ...demos, source: 'the demos' },
    ports: {
      openEnv: async () => { throw new Error('stage 1 evaluates nothing here'); },
      clock: () => 0, progressReports: 2, onProgress: (_step, loss) => losses.push(loss),
    },
  });
  return { losses, samples: result.samples, tensors: result.contents.tensors, normalizer: result.contents.metadata.normalizer };
}

describe('a D4RL file of our own hopper expert\'s rollouts', () => {
  it('imports to the native demos field by field, and BC from each takes the same steps', async () => {
    const { demos } = native;
    const episodes = demos.success.length;
    expect(demos.terminated!.length).toBe(episodes);
    // Episodes that fell and one the time limit cut.
    expect(new Set(demos.terminated)).toEqual(new Set([0, 1]));
    const bytes = await writeHdf5(d4rlEntries(demos));
    const imported = await importDataset({ files: [{ name: 'hopper-expert.hdf5', bytes }], task: 'hopper' });
    for (const key of ['obs', 'actions', 'rewards', 'episodeStarts', 'success', 'terminated'] as const) expect([...imported.demos[key]!]).toEqual([...demos[key]!]);
    // D4RL keeps no reset seeds.
    expect([...imported.demos.seeds]).toEqual(Array.from({ length: episodes }, () => -1));
    expect(imported.metadata).toEqual(native.metadata);
    expect(imported.summary).toMatch(new RegExp(`^hopper-expert\\.hdf5 \\(D4RL\\) for hopper: ${episodes} episodes, ${demos.rewards.length} steps; `));

    const fromNative = await twoBcSteps(native);
    const fromImport = await twoBcSteps({ demos: imported.demos, metadata: imported.metadata });
    expect(fromImport.samples).toBe(fromNative.samples);
    expect(fromImport.losses).toEqual(fromNative.losses);
    expect(fromNative.losses.length).toBeGreaterThan(0);
    expect(fromImport.normalizer).toEqual(fromNative.normalizer);
    expect([...fromImport.tensors.keys()]).toEqual([...fromNative.tensors.keys()]);
    for (const [name, tensor] of fromNative.tensors) expect([...fromImport.tensors.get(name)!.data]).toEqual([...tensor.data]);
  }, 120_000);
});
