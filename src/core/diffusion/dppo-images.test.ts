/**
 * Camera images through a diffusion policy's rollouts, DPPO's minibatches and evaluation (DESIGN.md §17, §19), as
 * rl/image-rollout.test.ts takes them through the flow family's: stored once per decision and shared by its K'
 * denoising-step rows, read by the fine-tuned and the frozen base net alike, shifted in updates only.
 */
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
import { FlowPolicy } from '../policy/flow-policy';
import type { PolicyObs } from '../policy/obs-encoder';
import type { PolicyBundle } from '../policy/policy-bundle';
import { randomShift } from '../policy/random-shift';
import { createRng } from '../random';
import { NamedAdam } from '../rl/adam';
import { copyPolicy } from '../rl/bc-reference';
import { collectDecisions } from '../rl/collect-rollout';
import { computeAdvantages } from '../rl/compute-advantages';
import { evaluateActor } from '../rl/evaluate';
import { freshBundle, tinyConfig } from '../rl/fixtures/test-support';
import { shuffledMinibatches } from '../rl/minibatches';
import { historyFor } from '../rl/obs-history';
import { PhaseTimes } from '../rl/phase-times';
import { ppoEpochs } from '../rl/ppo-epochs';
import { runEnvConfig } from '../run/run-env-config';
import { diffusionActor } from './diffusion-actor';
import { diffusionDecider } from './diffusion-decider';
import { diffusionSettings } from './diffusion-settings';
import { dppoObjective } from './dppo-objective';

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
/** T = 4 with the last K' = 2 fine-tuned: the base net runs the first 2 steps. 4 envs × 3 decisions × 2 = 24 samples. */
const FT = 2;
const imageConfig = (overrides: string[] = []) => tinyConfig([
  'task=pick-cube', 'env.obs_type=rgb', 'env.camera=front,wrist', `env.image_size=${SIZE}`, 'policy.n_obs_steps=1', 'policy.cnn_channels=4,4',
  'policy.image_features=8', 'env.steps_per_iteration=3', 'env.max_episode_steps=4', 'policy.kind=diffusion', 'policy.denoise_steps=4',
  `dppo.ft_denoising_steps=${FT}`, ...overrides,
]);

/** The env, recording the images of every observation it hands out: the reset's, each chunk's, and each chunk's final ones. */
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

/** Every image batch `net`'s encoder is given, as bytes, while `use` runs. */
async function encoderInputs<T>(nets: FlowPolicy[], use: () => Promise<T>): Promise<{ result: T; seen: Uint8Array[][] }> {
  const seen = nets.map(() => [] as Uint8Array[]);
  const originals = nets.map((net) => net.encode.bind(net));
  nets.forEach((net, index) => {
    net.encode = (obs: PolicyObs) => {
      if (obs.images) seen[index].push(Uint8Array.from(obs.images.dataSync()));
      return originals[index](obs);
    };
  });
  try {
    return { result: await use(), seen };
  } finally {
    nets.forEach((net, index) => { net.encode = originals[index]; });
  }
}

async function rollout(config: RunConfig, bundle: PolicyBundle, base: FlowPolicy, env: BatchEnv) {
  const history = historyFor(env, config.policy.n_obs_steps);
  history.reset(await env.reset([5, 6, 7, 8]), env.images!());
  const settings = diffusionSettings(config);
  const decider = diffusionDecider(bundle.policy, base, settings, history.stackedDim, createRng(9));
  const collected = await collectDecisions(bundle, env, { history }, config, decider, new PhaseTimes(() => 0));
  const { advantages, returns, mask } = computeAdvantages(collected.buffer, { ...config.advantages, normalize: false });
  return { ...collected, settings, advantages, returns, mask };
}

/** A fresh image policy and a base net of other weights, so the early steps' net is not the fine-tuned one. */
function policyAndBase(config: RunConfig, env: BatchEnv): { bundle: PolicyBundle; base: FlowPolicy } {
  const bundle = freshBundle(config, env.obsDim, env.actionDim);
  return { bundle, base: new FlowPolicy(bundle.policy.options, 2) };
}

describe('camera images through DPPO rollouts, minibatches and evaluation', () => {
  it('are stored once per decision as the env gave them, read by the base and the fine-tuned net, and shared by the decision\'s K\' rows', async () => {
    const config = imageConfig();
    const { env, given, finals } = recordingEnv(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const base = copyPolicy(bundle.policy);
    try {
      const { result, seen } = await encoderInputs([bundle.policy, base], () => rollout(config, bundle, base, env));
      const { buffer, settings, advantages, returns, mask } = result;
      const { numSteps, numEnvs } = buffer.shape;
      // T·N decisions of 1536 bytes each, stored once: 3 × 4 × 1536 = 18,432 bytes.
      expect(buffer.images).toHaveLength(numSteps * numEnvs * BYTES);
      for (let step = 0; step < numSteps; step++) expect(buffer.images.subarray(step * numEnvs * BYTES, (step + 1) * numEnvs * BYTES)).toEqual(given[step]);
      // Both nets saw exactly the images the env gave: the base net on the early steps, the fine-tuned one on the last K' and the values.
      const envImages = new Set([...given, ...finals].map((images) => images.join(',')));
      expect(seen[1]).toHaveLength(numSteps);
      expect(seen[0].length).toBeGreaterThan(numSteps);
      for (const images of [...seen[0], ...seen[1]]) expect(envImages.has(images.join(','))).toBe(true);
      // Each decision's K' rows gather its images, and upload them as their values 0..255.
      const objective = dppoObjective({ policy: bundle.policy, base, buffer, advantages, returns, mask, config: imageConfig(['policy.image_shift=0']), settings, criticOnly: false, bcRng: createRng(1) });
      expect(objective.tensors).toBeUndefined();
      let rows = 0;
      for (const minibatch of shuffledMinibatches(objective.table, objective.mask, createRng(2), 5)) {
        const arrays = minibatch.arrays();
        minibatch.rows.forEach((row, index) => {
          const decision = Math.floor(row / FT);
          expect(arrays.images.subarray(index * BYTES, (index + 1) * BYTES)).toEqual(buffer.images.subarray(decision * BYTES, (decision + 1) * BYTES));
        });
        const tensors = minibatch.tensors();
        expect(tensors.images.shape).toEqual([minibatch.rows.length, 2, SIZE, SIZE, 3]);
        expect(Uint8Array.from(await tensors.images.data())).toEqual(arrays.images);
        tf.dispose(Object.values(tensors));
        rows += minibatch.rows.length;
      }
      expect(rows).toBe(numSteps * numEnvs * FT);
    } finally {
      base.dispose();
      bundle.policy.dispose();
      await env.dispose();
    }
  });

  it('are randomly shifted in the update\'s minibatches (policy.image_shift) from the given stream, and the BC term\'s base net reads the shifted ones', async () => {
    const config = imageConfig(['policy.image_shift=2', 'ppo.bc_coef=0.1']);
    const { env } = recordingEnv(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const base = copyPolicy(bundle.policy);
    try {
      const { buffer, settings, advantages, returns, mask } = await rollout(config, bundle, base, env);
      const objective = dppoObjective({ policy: bundle.policy, base, buffer, advantages, returns, mask, config, settings, criticOnly: false, bcRng: createRng(1), shiftRng: createRng(8) });
      const expectedStream = createRng(8);
      for (const minibatch of shuffledMinibatches(objective.table, objective.mask, createRng(2), 6)) {
        const stored = minibatch.arrays().images as Uint8Array;
        const tensors = objective.tensors!(minibatch);
        // Two cameras per row: rows × 2 images of 16×16×3, each shifted by its own offset in [−2, 2].
        const shifted = randomShift(stored, { count: minibatch.rows.length * 2, size: SIZE, channels: 3 }, 2, expectedStream);
        expect(Uint8Array.from(await tensors.images.data())).toEqual(shifted);
        expect(shifted).not.toEqual(stored);
        const { result: prepared, seen } = await encoderInputs([base], async () => objective.prepare!(tensors));
        expect(seen[0]).toEqual([shifted]);
        tf.dispose([...Object.values(tensors), ...prepared]);
      }
      expect(() => dppoObjective({ policy: bundle.policy, base, buffer, advantages, returns, mask, config, settings, criticOnly: false, bcRng: createRng(1) }))
        .toThrow("policy.image_shift shifts camera images in updates with the run's RNG; pass the update its shift stream or set policy.image_shift=0");
    } finally {
      base.dispose();
      bundle.policy.dispose();
      await env.dispose();
    }
  });

  it('without the shift keep DPPO\'s ratio at 1 at lr 0, as the stored log-probs were taken on the same images, and leak no tensor', async () => {
    const config = imageConfig(['policy.image_shift=0', 'ppo.epochs=1', 'ppo.minibatch_size=6', 'ppo.bc_coef=0.1']);
    const { env } = recordingEnv(config);
    const { bundle, base } = policyAndBase(config, env);
    const adam = () => new NamedAdam({ beta1: 0.9, beta2: 0.999, epsilon: 1e-5, weightDecay: 0 });
    const [actorOptimizer, criticOptimizer] = [adam(), adam()];
    try {
      const tensorsAfter: number[] = [];
      for (let iteration = 0; iteration < 2; iteration++) {
        const { buffer, settings, advantages, returns, mask } = await rollout(config, bundle, base, env);
        const objective = dppoObjective({ policy: bundle.policy, base, buffer, advantages, returns, mask, config, settings, criticOnly: false, bcRng: createRng(1) });
        const update = await ppoEpochs({
          objective, config, actorOptimizer, criticOptimizer, actorLr: 0, criticLr: 0, criticOnly: false, rng: createRng(3), skipStreak: { current: 0 },
        });
        expect(update.applied).toBe(4);
        expect(Math.abs((update.metrics['losses/ratio_max'] as number) - 1)).toBeLessThan(1e-5);
        expect(update.metrics['losses/clip_fraction']).toBe(0);
        expect(Number.isFinite(update.metrics['losses/bc'] as number)).toBe(true);
        tensorsAfter.push(tf.memory().numTensors);
      }
      // Images leave no tensor behind: the count stays flat from one rollout and update to the next.
      expect(tensorsAfter[1]).toBe(tensorsAfter[0]);
    } finally {
      actorOptimizer.dispose();
      criticOptimizer.dispose();
      base.dispose();
      bundle.policy.dispose();
      await env.dispose();
    }
  });

  it('reach both nets as the env rendered them in evaluation too', async () => {
    const config = imageConfig();
    const { env, given, finals } = recordingEnv(config, 2);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const base = copyPolicy(bundle.policy);
    try {
      const actor = diffusionActor(bundle, config, { net: base, ftSteps: FT });
      const { result: summary, seen } = await encoderInputs([bundle.policy, base], () => evaluateActor(actor, env, config, [11, 12], createRng(4)));
      expect(summary.episodes).toBe(2);
      const envImages = new Set([...given, ...finals].map((images) => images.join(',')));
      expect(seen[0].length).toBeGreaterThan(0);
      expect(seen[1]).toHaveLength(seen[0].length);
      for (const images of [...seen[0], ...seen[1]]) expect(envImages.has(images.join(','))).toBe(true);
    } finally {
      base.dispose();
      bundle.policy.dispose();
      await env.dispose();
    }
  });
});
