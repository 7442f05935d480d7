import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import { injectCameraImageSource } from '../envs/camera/image-source';
import { StatePaintedImageSource } from '../envs/camera/state-painted-image-source';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import type { PolicyObs } from '../policy/obs-encoder';
import { obsFeatureDim } from '../policy/options';
import type { PolicyBundle } from '../policy/policy-bundle';
import { randomShift } from '../policy/random-shift';
import { createRng } from '../random';
import { NamedAdam } from './adam';
import { collectRollout } from './collect-rollout';
import { computeAdvantages } from './compute-advantages';
import { evaluatePolicy } from './evaluate';
import { freshBundle, tinyConfig } from './fixtures/test-support';
import { shuffledMinibatches } from './minibatches';
import { historyFor } from './obs-history';
import { PhaseTimes } from './phase-times';
import { logProbSliceFromConfig, samplerOptionsAt } from './policy-setup';
import { ppoRowTable } from './ppo-minibatch-loss';
import { flowObjective, ppoUpdate } from './ppo-update';
import { runEnvConfig } from '../run/run-env-config';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
  injectCameraImageSource((request) => new StatePaintedImageSource(request));
});
afterAll(() => injectCameraImageSource(undefined));

const SIZE = 16;
/** Two cameras of 16×16 rgb: 2·16·16·3 = 1536 bytes per observation. */
const BYTES = 2 * SIZE * SIZE * 3;
const imageConfig = (overrides: string[] = []) => tinyConfig([
  'task=pick-cube', 'env.obs_type=rgb', 'env.camera=front,wrist', `env.image_size=${SIZE}`, 'policy.n_obs_steps=1',
  'policy.cnn_channels=4,4', 'policy.image_features=8', 'env.steps_per_iteration=3', 'env.max_episode_steps=4', ...overrides,
]);

/** The env, recording the images every observation it hands out shows: the reset's, each chunk's, and each chunk's final ones. */
function recordingEnv(config: RunConfig, numEnvs = config.num_envs): { env: BatchEnv; given: Uint8Array[]; finals: Uint8Array[] } {
  const inner = new InThreadBatchEnv(mj, { ...runEnvConfig(config, 'train', false), numEnvs });
  const given: Uint8Array[] = [];
  const finals: Uint8Array[] = [];
  const env: BatchEnv = {
    get numEnvs() { return inner.numEnvs; },
    get obsDim() { return inner.obsDim; },
    get actionDim() { return inner.actionDim; },
    get imageSpec() { return inner.imageSpec; },
    images: () => inner.images(),
    reset: async (seeds) => {
      const obs = await inner.reset(seeds);
      given.push(inner.images());
      return obs;
    },
    stepChunk: async (actions, nSteps, gamma) => {
      const result = await inner.stepChunk(actions, nSteps, gamma);
      given.push(result.images!);
      finals.push(result.finalImages!);
      return result;
    },
    drainEpisodes: () => inner.drainEpisodes(),
    metrics: () => inner.metrics(),
    snapshot: () => inner.snapshot(),
    restore: (snapshot) => inner.restore(snapshot),
    dispose: () => inner.dispose(),
  };
  return { env, given, finals };
}

/** Every image batch the policy's encoder is given, as bytes, while `use` runs. */
async function encoderInputs<T>(bundle: PolicyBundle, use: () => Promise<T>): Promise<{ result: T; seen: Uint8Array[] }> {
  const seen: Uint8Array[] = [];
  const encode = bundle.policy.encode.bind(bundle.policy);
  bundle.policy.encode = (obs: PolicyObs) => {
    if (obs.images) seen.push(Uint8Array.from(obs.images.dataSync()));
    return encode(obs);
  };
  try {
    return { result: await use(), seen };
  } finally {
    bundle.policy.encode = encode;
  }
}

async function rollout(config: RunConfig, bundle: PolicyBundle, env: BatchEnv) {
  const history = historyFor(env, config.policy.n_obs_steps);
  history.reset(await env.reset([5, 6, 7, 8]), env.images!());
  const sampler = samplerOptionsAt(config, 0, 'train');
  const slice = logProbSliceFromConfig(config, env.actionDim);
  const collected = await collectRollout(bundle, env, { history }, config, sampler, slice, createRng(9), new PhaseTimes(() => 0));
  return { ...collected, sampler, slice };
}

describe('camera images through PPO rollouts and minibatches', () => {
  it('are stored once per decision, as the env gave them, and come out of the buffer and every minibatch byte for byte', async () => {
    const config = imageConfig();
    const { env, given, finals } = recordingEnv(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    try {
      expect(bundle.policy.options.image).toMatchObject({ cameras: ['front', 'wrist'], size: SIZE, channels: 3 });
      const { result: { buffer, sampler, slice }, seen } = await encoderInputs(bundle, () => rollout(config, bundle, env));
      const { numSteps, numEnvs } = buffer.shape;
      // T·N decisions of 1536 bytes each, stored once: 3 × 4 × 1536 = 18,432 bytes.
      expect(buffer.images).toHaveLength(numSteps * numEnvs * BYTES);
      for (let step = 0; step < numSteps; step++) expect(buffer.images.subarray(step * numEnvs * BYTES, (step + 1) * numEnvs * BYTES)).toEqual(given[step]);
      // The encoder saw exactly the images the env gave (decisions, and final ones for bootstrap values): nothing shifted in rollouts.
      const envImages = new Set([...given, ...finals].map((images) => images.join(',')));
      expect(seen.length).toBeGreaterThan(numSteps);
      for (const images of seen) expect(envImages.has(images.join(','))).toBe(true);
      // Minibatches gather the same bytes, and upload them as their values 0..255.
      const { advantages, returns, mask } = computeAdvantages(buffer, config.advantages);
      const table = ppoRowTable(buffer, advantages, returns, bundle.policy, slice);
      let rows = 0;
      for (const minibatch of shuffledMinibatches(table, mask, createRng(2), 3)) {
        const arrays = minibatch.arrays();
        minibatch.rows.forEach((row, index) => expect(arrays.images.subarray(index * BYTES, (index + 1) * BYTES)).toEqual(buffer.images.subarray(row * BYTES, (row + 1) * BYTES)));
        const tensors = minibatch.tensors();
        expect(tensors.images.shape).toEqual([minibatch.rows.length, 2, SIZE, SIZE, 3]);
        expect(Uint8Array.from(await tensors.images.data())).toEqual(arrays.images);
        tf.dispose(Object.values(tensors));
        rows += minibatch.rows.length;
      }
      expect(rows).toBe(numSteps * numEnvs);
      expect(sampler.method).toBe('sde');
    } finally {
      bundle.policy.dispose();
      await env.dispose();
    }
  });

  it('are replaced by the frozen encoder\'s features at rollout time (policy.freeze_encoder=true): no image is stored', async () => {
    const config = imageConfig(['policy.freeze_encoder=true']);
    const { env } = recordingEnv(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    try {
      const { buffer } = await rollout(config, bundle, env);
      expect(buffer.images).toHaveLength(0);
      // Each camera's 8 features, then the 15 proprioception values: 2·8 + 15 = 31.
      expect(buffer.shape.obsSize).toBe(obsFeatureDim(bundle.policy.options));
      expect(buffer.shape.obsSize).toBe(31);
    } finally {
      bundle.policy.dispose();
      await env.dispose();
    }
  });

  it('are randomly shifted in the update\'s minibatches (policy.image_shift) from the given stream, and not without it', async () => {
    const config = imageConfig(['policy.image_shift=2']);
    const { env } = recordingEnv(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    try {
      const { buffer, sampler, slice } = await rollout(config, bundle, env);
      const { advantages, returns, mask } = computeAdvantages(buffer, config.advantages);
      const objective = flowObjective({ policy: bundle.policy, buffer, advantages, returns, mask, sampler, slice, config, criticOnly: false, shiftRng: createRng(8) });
      const expectedStream = createRng(8);
      for (const minibatch of shuffledMinibatches(objective.table, mask, createRng(2), 4)) {
        const stored = minibatch.arrays().images as Uint8Array;
        const tensors = objective.tensors!(minibatch);
        // Two cameras per decision: rows × 2 images of 16×16×3, each shifted by its own offset in [−2, 2].
        const shifted = randomShift(stored, { count: minibatch.rows.length * 2, size: SIZE, channels: 3 }, 2, expectedStream);
        expect(Uint8Array.from(await tensors.images.data())).toEqual(shifted);
        expect(shifted).not.toEqual(stored);
        tf.dispose(Object.values(tensors));
      }
      const plain = flowObjective({ policy: bundle.policy, buffer, advantages, returns, mask, sampler, slice, config: imageConfig(['policy.image_shift=0']), criticOnly: false });
      expect(plain.tensors).toBeUndefined();
    } finally {
      bundle.policy.dispose();
      await env.dispose();
    }
  });

  it('without the shift keep the PPO ratio at 1 at lr 0, as the stored log-probs were taken on the same images, and leak no tensor', async () => {
    const config = imageConfig(['policy.image_shift=0', 'ppo.epochs=1']);
    const { env } = recordingEnv(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const adam = () => new NamedAdam({ beta1: 0.9, beta2: 0.999, epsilon: 1e-5, weightDecay: 0 });
    const [actorOptimizer, criticOptimizer] = [adam(), adam()];
    try {
      const tensorsAfter: number[] = [];
      for (let iteration = 0; iteration < 2; iteration++) {
        const { buffer, sampler, slice } = await rollout(config, bundle, env);
        const { advantages, returns, mask } = computeAdvantages(buffer, config.advantages);
        const update = await ppoUpdate({
          policy: bundle.policy, buffer, advantages, returns, mask, sampler, slice, config, criticOnly: false,
          actorOptimizer, criticOptimizer, actorLr: 0, criticLr: 0, rng: createRng(3), skipStreak: { current: 0 },
        });
        expect(Math.abs((update.metrics['losses/ratio_max'] as number) - 1)).toBeLessThan(1e-5);
        expect(update.metrics['losses/clip_fraction']).toBe(0);
        tensorsAfter.push(tf.memory().numTensors);
      }
      // Images leave no tensor behind: the count stays flat from one rollout and update to the next.
      expect(tensorsAfter[1]).toBe(tensorsAfter[0]);
    } finally {
      actorOptimizer.dispose();
      criticOptimizer.dispose();
      bundle.policy.dispose();
      await env.dispose();
    }
  });

  it('reach the policy as the env rendered them in evaluation too', async () => {
    const config = imageConfig();
    const { env, given, finals } = recordingEnv(config, 2);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    try {
      const { result: summary, seen } = await encoderInputs(bundle, () => evaluatePolicy(bundle, env, config, [11, 12], createRng(4)));
      expect(summary.episodes).toBe(2);
      const envImages = new Set([...given, ...finals].map((images) => images.join(',')));
      expect(seen.length).toBeGreaterThan(0);
      for (const images of seen) expect(envImages.has(images.join(','))).toBe(true);
    } finally {
      bundle.policy.dispose();
      await env.dispose();
    }
  });
});
