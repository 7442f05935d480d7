import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { VectorEnv } from '../envs/vector-env';
import type { Mujoco } from '../envs/mujoco-types';
import { ShapeError, TrainingError } from '../errors';
import type { PolicyBundle } from '../policy/policy-bundle';
import { createRng } from '../random';
import { freshBundle, tinyConfig } from '../rl/fixtures/test-support';
import { ReplayScenes } from '../render/replay-scenes';
import { renderRecordedImages } from '../render/recorded-images';
import { sampleChainSet, sampleEpisodeChains } from './chain-sampler';
import { EpisodeStore } from './episode-store';

const SIZE = 16;
/** A tiny image policy on pick-cube's first camera (the front one), as the studio's camera variant builds it. */
const config = tinyConfig(['task=pick-cube', 'env.obs_type=rgb', `env.image_size=${SIZE}`, 'policy.n_obs_steps=1', 'policy.cnn_channels=4,4', 'policy.image_features=8']);
const IMAGE_BYTES = SIZE * SIZE * 3;

let mj: Mujoco;
let scenes: ReplayScenes;
let bundle: PolicyBundle;
let obsDim: number;

beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
  scenes = new ReplayScenes(mj);
  const probe = new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, obsMode: 'rgb', imageSize: SIZE });
  obsDim = probe.obsDim;
  probe.dispose();
  bundle = freshBundle(config, obsDim, 4, 7);
});
afterAll(() => {
  bundle.policy.dispose();
  scenes.dispose();
});

/** Uniform random pixels of one decision. */
function randomImages(seed: number): Uint8Array {
  const rng = createRng(seed);
  return Uint8Array.from({ length: IMAGE_BYTES }, () => rng.int(256));
}

describe('chains of an image policy (DESIGN.md §19)', () => {
  it('are conditioned on the decision\'s images: the same images repeat exactly, other images move them, no tensor leaks', async () => {
    const rng = createRng(5);
    const obs = Float32Array.from({ length: obsDim }, () => rng.uniform() - 0.5);
    const images = randomImages(11);
    const policy = { kind: 'flow' as const, bundle };
    const before = tf.memory().numTensors;
    const first = await sampleChainSet(policy, { obs, images }, config, 0, 3, 9);
    const again = await sampleChainSet(policy, { obs, images }, config, 0, 3, 9);
    const other = await sampleChainSet(policy, { obs, images: randomImages(12) }, config, 0, 3, 9);
    expect(tf.memory().numTensors).toBe(before);
    expect(first.count).toBe(3);
    expect(first.cameraImages).toBe('decision');
    expect(first.chains.every(Number.isFinite)).toBe(true);
    expect(Array.from(again.chains)).toEqual(Array.from(first.chains));
    expect(Array.from(again.odeChain)).toEqual(Array.from(first.odeChain));
    // x_0 comes from the seed: the images move every later step, the deterministic chain's too.
    const x0Size = first.horizon * first.actionDim;
    expect(Array.from(other.chains.subarray(0, x0Size))).toEqual(Array.from(first.chains.subarray(0, x0Size)));
    expect(Array.from(other.chains)).not.toEqual(Array.from(first.chains));
    expect(Array.from(other.odeChain)).not.toEqual(Array.from(first.odeChain));
  });

  it('refuses a decision without its images in one sentence naming the bytes, and leaks nothing', async () => {
    const obs = new Float32Array(obsDim);
    const before = tf.memory().numTensors;
    const call = () => sampleChainSet({ kind: 'flow', bundle }, { obs }, config, 0, 2, 1);
    await expect(call()).rejects.toThrow(ShapeError);
    await expect(call()).rejects.toThrow(`images hold 0 bytes; an image policy needs 2 rows × ${IMAGE_BYTES} bytes (1 cameras of ${SIZE}×${SIZE}×3)`);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('at a stored episode step, sees that frame\'s images ray-cast from its recorded pose', async () => {
    const env = new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, obsMode: 'rgb', imageSize: SIZE, recordEpisodes: true });
    const store = new EpisodeStore();
    try {
      env.reset([4]);
      const rng = createRng(8);
      for (let step = 0; step < 5; step++) env.stepChunk(Float32Array.from({ length: env.config.actionDim }, () => 2 * rng.uniform() - 1), 1, 1);
      const record = env.env(0).episodeRecord(0);
      const [id] = store.add({ task: 'pick-cube', iteration: 1, train: [record], obsType: 'rgb' }).added.map((summary) => summary.id);
      const policy = { kind: 'flow' as const, bundle };
      const sampled = await sampleEpisodeChains(store, { id, step: 3 }, policy, config, 0, 2, 6, 'run', scenes);
      const images = renderRecordedImages(scenes.scene('pick-cube'), record, 3, bundle.policy.options.image!);
      const direct = await sampleChainSet(policy, { obs: record.obs!.slice(3 * obsDim, 4 * obsDim), images }, config, 0, 2, 6);
      expect(sampled).toMatchObject({ obsSource: 'episode', episode: { id, step: 3 }, envIndex: 0, cameraImages: 'recorded-pose' });
      expect(Array.from(sampled.chains)).toEqual(Array.from(direct.chains));
      // Another frame shows the arm elsewhere: other chains.
      const later = await sampleEpisodeChains(store, { id, step: 5 }, policy, config, 0, 2, 6, 'run', scenes);
      expect(Array.from(later.chains)).not.toEqual(Array.from(sampled.chains));
      // A host without the scene cannot render them, and says so.
      await expect(sampleEpisodeChains(store, { id, step: 3 }, policy, config, 0, 2, 6, 'run')).rejects.toThrow(TrainingError);
    } finally {
      env.dispose();
    }
  });
});
