import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import type { EpisodeRecord } from '../envs/task-env';
import { TrainingError } from '../errors';
import { createRng } from '../random';
import { stackEpisodeObs } from '../rl/episode-obs-stack';
import type { PolicyBundle } from '../policy/policy-bundle';
import { freshBundle, tinyConfig } from '../rl/fixtures/test-support';
import { sampleDiffusionChainSet } from '../diffusion/diffusion-chain-view';
import { episodeStepObservation, sampleChainSet, sampleEpisodeChains } from './chain-sampler';
import { EpisodeStore } from './episode-store';

const OBS_DIM = 6;
const ACTION_DIM = 4;

/** A recorded episode of `length` steps with random observations [length + 1, OBS_DIM]. */
function episode(envIndex: number, length: number, seed: number, withObs = true): EpisodeRecord {
  const rng = createRng(seed);
  const obs = new Float32Array((length + 1) * OBS_DIM).map(() => 2 * rng.uniform() - 1);
  return { envIndex, seed, episodeReturn: -length, length, success: false, nq: 1, mocapPos: [], qpos: new Float32Array(length + 1), ...(withObs ? { obs } : {}) };
}

function storeWith(records: EpisodeRecord[]): { store: EpisodeStore; ids: string[] } {
  const store = new EpisodeStore();
  const ids = store.add({ task: 'reach', iteration: 7, train: records }).added.map((summary) => summary.id);
  return { store, ids };
}

describe('episodeStepObservation', () => {
  it('with decision spacing, stacks the stored obs n_action_steps apart, as the rollout history did', () => {
    const records = [episode(2, 9, Math.floor(Math.random() * 2 ** 31)), episode(3, 4, 5)];
    const { store, ids } = storeWith(records);
    const policy = { n_obs_steps: 2, n_action_steps: 4, history_spacing: 'decision' as const };
    for (const step of [0, 3, 4, 9]) {
      const input = episodeStepObservation(store, { id: ids[0], step }, OBS_DIM, policy);
      expect(input.envIndex).toBe(2);
      expect(Array.from(input.obs)).toEqual(Array.from(stackEpisodeObs(records[0].obs!, OBS_DIM, 2, step, 4)));
    }
    // Step 8: frames 4 and 8, copied exactly.
    const obs = records[0].obs!;
    const expected = [...obs.subarray(4 * OBS_DIM, 5 * OBS_DIM), ...obs.subarray(8 * OBS_DIM, 9 * OBS_DIM)];
    expect(Array.from(episodeStepObservation(store, { id: ids[0], step: 8 }, OBS_DIM, policy).obs)).toEqual(expected);
  });

  it('with step spacing, stacks consecutive control steps, as BC and a step-spaced rollout do', () => {
    const records = [episode(2, 9, 17)];
    const { store, ids } = storeWith(records);
    const policy = { n_obs_steps: 2, n_action_steps: 4, history_spacing: 'step' as const };
    // Step 8: frames 7 and 8; step 0: frame 0 twice.
    const obs = records[0].obs!;
    expect(Array.from(episodeStepObservation(store, { id: ids[0], step: 8 }, OBS_DIM, policy).obs)).toEqual([...obs.subarray(7 * OBS_DIM, 9 * OBS_DIM)]);
    expect(Array.from(episodeStepObservation(store, { id: ids[0], step: 0 }, OBS_DIM, policy).obs)).toEqual([...obs.subarray(0, OBS_DIM), ...obs.subarray(0, OBS_DIM)]);
  });

  it('names the id, the step and the valid range on bad requests', () => {
    const { store, ids } = storeWith([episode(0, 5, 1), episode(1, 3, 2, false)]);
    const policy = { n_obs_steps: 1, n_action_steps: 2, history_spacing: 'decision' as const };
    const call = (id: string, step: number, obsDim = OBS_DIM) => () => episodeStepObservation(store, { id, step }, obsDim, policy);
    expect(call('train-1-9', 0)).toThrow(TrainingError);
    expect(call('train-1-9', 0)).toThrow(`episode 'train-1-9' is not in the store (stored ids run from ${ids[0]} to ${ids[1]})`);
    expect(call(ids[0], 6)).toThrow(`step 6 of episode '${ids[0]}' is out of range: steps run from 0 to 5`);
    expect(call(ids[0], -1)).toThrow(/steps run from 0 to 5/);
    expect(call(ids[0], 2.5)).toThrow(TrainingError);
    expect(call(ids[1], 0)).toThrow(`episode '${ids[1]}' holds 0 observation values; the policy needs 4 frames × obs_dim ${OBS_DIM}`);
    expect(call(ids[0], 0, OBS_DIM + 1)).toThrow(/the policy needs 6 frames × obs_dim 7/);
    expect(() => episodeStepObservation(new EpisodeStore(), { id: 'eval-1-0', step: 0 }, OBS_DIM, policy)).toThrow(/\(the store is empty\)/);
  });
});

describe('sampleEpisodeChains', () => {
  let bundle: PolicyBundle;
  const config = tinyConfig(['policy.n_obs_steps=2', 'noise.method=sde', 'noise.mode=hybrid', 'noise.level=0.5']);
  beforeAll(async () => {
    await useNodeBackend('wasm');
    bundle = freshBundle(config, OBS_DIM, ACTION_DIM, 4);
  });
  afterAll(() => bundle.policy.dispose());

  it('samples from the episode step: same step and seed repeat exactly, another step differs', async () => {
    const records = [episode(1, 8, Math.floor(Math.random() * 2 ** 31))];
    const { store, ids } = storeWith(records);
    const before = tf.memory().numTensors;
    const atFour = await sampleEpisodeChains(store, { id: ids[0], step: 4 }, { kind: 'flow', bundle }, config, 0, 3, 9, 'run');
    const again = await sampleEpisodeChains(store, { id: ids[0], step: 4 }, { kind: 'flow', bundle }, config, 0, 3, 9, 'run');
    const atSix = await sampleEpisodeChains(store, { id: ids[0], step: 6 }, { kind: 'flow', bundle }, config, 0, 3, 9, 'run');
    expect(tf.memory().numTensors).toBe(before);
    expect(atFour.obsSource).toBe('episode');
    expect(atFour.family).toBe('flow');
    expect(atFour.model).toBe('run');
    expect(atFour.cameraImages).toBeUndefined();
    expect(atFour.episode).toEqual({ id: ids[0], step: 4 });
    expect(atFour.envIndex).toBe(1);
    expect(atFour.count).toBe(3);
    expect(Array.from(again.chains)).toEqual(Array.from(atFour.chains));
    expect(Array.from(atSix.chains)).not.toEqual(Array.from(atFour.chains));
    // x_0 is shared by seed, so only the observation moved the chains: row k = 0 is identical.
    const chainSize = (atFour.steps + 1) * atFour.horizon * atFour.actionDim;
    const x0Size = atFour.horizon * atFour.actionDim;
    expect(Array.from(atSix.chains.subarray(0, x0Size))).toEqual(Array.from(atFour.chains.subarray(0, x0Size)));
    expect(atSix.chains.length).toBe(3 * chainSize);
    // The same as sampling the stacked obs directly (step spacing, the default: frames 3 and 4).
    expect(config.policy.history_spacing).toBe('step');
    const direct = await sampleChainSet({ kind: 'flow', bundle }, { obs: stackEpisodeObs(records[0].obs!, OBS_DIM, 2, 4, 1) }, config, 0, 3, 9);
    expect(Array.from(direct.chains)).toEqual(Array.from(atFour.chains));
  });

  it('steps through point-cloud episodes by the whole frame, points and proprioception', async () => {
    // 16 points × 3 + 6 proprioception = 54 values a frame; obsDim alone (6) would slice mid-frame.
    const pointConfig = tinyConfig(['policy.n_obs_steps=2', 'env.obs_type=pointcloud', 'env.num_points=16', 'policy.encoder_hidden=16']);
    const frameSize = 16 * 3 + OBS_DIM;
    const pointBundle = freshBundle(pointConfig, frameSize, ACTION_DIM, 5);
    try {
      const rng = createRng(23);
      const length = 6;
      const record: EpisodeRecord = {
        envIndex: 0, seed: 1, episodeReturn: 0, length, success: false, nq: 1, mocapPos: [], qpos: new Float32Array(length + 1),
        obs: new Float32Array((length + 1) * frameSize).map(() => 2 * rng.uniform() - 1),
      };
      const { store, ids } = storeWith([record]);
      const sampled = await sampleEpisodeChains(store, { id: ids[0], step: 5 }, { kind: 'flow', bundle: pointBundle }, pointConfig, 0, 2, 4, 'selected');
      const direct = await sampleChainSet({ kind: 'flow', bundle: pointBundle }, { obs: stackEpisodeObs(record.obs!, frameSize, 2, 5, 1) }, pointConfig, 0, 2, 4);
      expect(Array.from(sampled.chains)).toEqual(Array.from(direct.chains));
    } finally {
      pointBundle.policy.dispose();
    }
  });

  it('samples a diffusion policy\'s chains on its own sampler, from the episode step as from the stacked obs', async () => {
    const diffusion = tinyConfig(['policy.n_obs_steps=2', 'policy.kind=diffusion', 'policy.denoise_steps=4', 'dppo.ft_denoising_steps=2']);
    const diffusionBundle = freshBundle(diffusion, OBS_DIM, ACTION_DIM, 6);
    try {
      const records = [episode(2, 5, 31)];
      const { store, ids } = storeWith(records);
      const policy = { kind: 'diffusion' as const, bundle: diffusionBundle };
      const before = tf.memory().numTensors;
      const sampled = await sampleEpisodeChains(store, { id: ids[0], step: 3 }, policy, diffusion, 0, 2, 4, 'fresh');
      expect(tf.memory().numTensors).toBe(before);
      expect(sampled).toMatchObject({ family: 'diffusion', steps: 4, timesteps: [3, 2, 1, 0], envIndex: 2, obsSource: 'episode', model: 'fresh' });
      const direct = await sampleDiffusionChainSet(policy, { obs: stackEpisodeObs(records[0].obs!, OBS_DIM, 2, 3, 1) }, diffusion, 2, 4);
      expect(Array.from(sampled.chains)).toEqual(Array.from(direct.chains));
    } finally {
      diffusionBundle.policy.dispose();
    }
  });
});
