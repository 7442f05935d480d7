import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { defaultConfig } from '../config';
import { CheckpointError } from '../errors';
import type { SamplerOptions } from '../flow/sampling-options';
import { createRng } from '../random';
import type { AdamState } from '../rl/adam';
import { executedActions, normalizeStacked, sampleForObs } from '../rl/policy-bundle';
import { withObsClip, type PolicyBundle } from '../policy/policy-bundle';
import { samplerOptionsAt } from '../rl/policy-setup';
import { bitsOf, freshBundle, tinyConfig } from '../rl/fixtures/test-support';
import type { RunProgress } from './checkpoint-types';
import { encodeFlowtune, inspectFlowtune } from './flowtune-file';
import { bundleContents, bundleFromCheckpoint, configFromCheckpoint, storedDenoisedClamp, type LoadedBundle } from './policy-checkpoint';

import { exportTfjs } from './tfjs-format';
import { decodePolicyCheckpoint, decodeTfjsPolicyCheckpoint, loadBundle } from './fixtures/decode-bytes';

const OBS_DIM = 10;
const ACTION_DIM = 4;
const config = tinyConfig(['noise.method=sde', 'noise.mode=hybrid']);

beforeAll(async () => {
  await useNodeBackend('wasm');
});

let bundle: PolicyBundle;
beforeEach(async () => {
  bundle = freshBundle(config, OBS_DIM, ACTION_DIM, 5);
  // Random weights everywhere (a fresh policy has zero biases), so every tensor matters.
  const rng = createRng(77);
  const weights = await bundle.policy.getWeights();
  for (const entry of weights.values()) entry.data = entry.data.map(() => 0.3 * rng.normal());
  bundle.policy.setWeights(weights);
});
afterEach(() => {
  bundle.policy.dispose();
});

/** Adam moments for two parameters, as a trainer would save them. */
function sampleProgress(): RunProgress {
  const rng = createRng(12);
  const slot = (name: string) => {
    const size = bundle.policy.namedVariables().get(name)!.size;
    return { m: Float32Array.from({ length: size }, () => rng.normal()), v: Float32Array.from({ length: size }, () => Math.abs(rng.normal())) };
  };
  const actor: AdamState = { step: 7, slots: new Map([['velocity.output.kernel', slot('velocity.output.kernel')]]) };
  const critic: AdamState = { step: 5, slots: new Map([['value.output.bias', slot('value.output.bias')]]) };
  return { iteration: 3, envSteps: 96, actor, critic };
}

async function fileBytes(withProgress = false): Promise<Uint8Array> {
  return encodeFlowtune(await bundleContents({ bundle, task: 'reach', stage: withProgress ? 'ppo' : 'bc', config, progress: withProgress ? sampleProgress() : undefined, step: withProgress ? undefined : 40 }));
}

/** Samples 3 stacked observations with a fixed RNG; returns the chains, log-probs, values and env actions. */
async function sampleOf(target: PolicyBundle, options: SamplerOptions): Promise<Float32Array[]> {
  const raw = Float32Array.from({ length: 3 * config.policy.n_obs_steps * OBS_DIM }, (_, index) => 1.5 * Math.sin(0.7 * index));
  const sample = await sampleForObs(target, normalizeStacked(target, raw), options, createRng(2024));
  return [sample.chains, sample.logProbs, sample.values, executedActions(target, sample, config.policy.n_action_steps)];
}

async function expectSameBehaviour(loaded: LoadedBundle): Promise<void> {
  try {
    for (const options of [samplerOptionsAt(config, 0, 'eval'), samplerOptionsAt(config, 0, 'train')]) {
      const expected = await sampleOf(bundle, options);
      const actual = await sampleOf(loaded.bundle, options);
      expected.forEach((values, index) => expect([...bitsOf(actual[index])], `${options.mode} output ${index}`).toEqual([...bitsOf(values)]));
    }
    // The train (sde) sample really is stochastic, so the comparison covers the noise path.
    expect((await sampleOf(bundle, samplerOptionsAt(config, 0, 'train')))[1].some((value) => value !== 0)).toBe(true);
  } finally {
    loaded.bundle.policy.dispose();
  }
}

function expectSameProgress(actual: RunProgress | undefined, expected: RunProgress): void {
  expect(actual).toBeDefined();
  expect(actual!.iteration).toBe(expected.iteration);
  expect(actual!.envSteps).toBe(expected.envSteps);
  for (const key of ['actor', 'critic'] as const) {
    expect(actual![key].step).toBe(expected[key].step);
    expect([...actual![key].slots.keys()]).toEqual([...expected[key].slots.keys()]);
    for (const [name, slot] of expected[key].slots) {
      expect([...bitsOf(actual![key].slots.get(name)!.m)]).toEqual([...bitsOf(slot.m)]);
      expect([...bitsOf(actual![key].slots.get(name)!.v)]).toEqual([...bitsOf(slot.v)]);
    }
  }
}

describe('policy checkpoints: round trips', () => {
  it('.flowtune: bit-identical eval and sde samples, normalizers, metadata; no optimizer state for a BC file', async () => {
    const loaded = loadBundle(await fileBytes(), { expectedTask: 'reach', expected: { obsFrameSize: OBS_DIM, actionDim: ACTION_DIM } });
    expect(loaded.metadata.stage).toBe('bc');
    expect(loaded.metadata.training.step).toBe(40);
    expect(loaded.progress).toBeUndefined();
    expect(loaded.bundle.obsNormalizer.toJSON()).toEqual(bundle.obsNormalizer.toJSON());
    expect(loaded.bundle.actionNormalizer.toJSON()).toEqual(bundle.actionNormalizer.toJSON());
    await expectSameBehaviour(loaded);
  });

  it('.flowtune with trainer progress: iteration, env steps and Adam moments come back exactly', async () => {
    const loaded = loadBundle(await fileBytes(true), { expectedTask: 'reach' });
    expect(loaded.metadata.stage).toBe('ppo');
    expect(loaded.metadata.training).toEqual({ step: 7, iteration: 3, env_steps: 96 });
    expectSameProgress(loaded.progress, sampleProgress());
    await expectSameBehaviour(loaded);
  });

  it('tfjs model.json + weights: the same samples and progress', async () => {
    const contents = await bundleContents({ bundle, task: 'reach', stage: 'ppo', config, progress: sampleProgress() });
    const { modelJson, weightsBin } = exportTfjs(contents);
    const loaded = bundleFromCheckpoint(decodeTfjsPolicyCheckpoint(modelJson, weightsBin, { expectedTask: 'reach', expected: { obsFrameSize: OBS_DIM } }));
    expectSameProgress(loaded.progress, sampleProgress());
    await expectSameBehaviour(loaded);
  });

  it('configFromCheckpoint restores the architecture, K and executed steps over another base config', async () => {
    const loaded = loadBundle(await fileBytes());
    try {
      const restored = configFromCheckpoint(defaultConfig(), loaded.metadata);
      expect(restored.task).toBe('reach');
      expect(restored.policy).toMatchObject({ horizon: 4, n_obs_steps: 2, hidden: [32, 32], encoder_hidden: [32], value_hidden: [32], noise_head_hidden: [16], denoise_steps: 3, n_action_steps: 2 });
      // Fields a checkpoint does not decide stay the base's.
      expect(restored.num_envs).toBe(defaultConfig().num_envs);
    } finally {
      loaded.bundle.policy.dispose();
    }
  });

  it('configFromCheckpoint takes the history spacing a fine-tuned checkpoint trained with, never a BC file\'s', async () => {
    const stepConfig = { ...config, policy: { ...config.policy, history_spacing: 'step' as const } };
    const base = { ...defaultConfig(), policy: { ...defaultConfig().policy, history_spacing: 'decision' as const } };
    const ppo = await bundleContents({ bundle, task: 'reach', stage: 'ppo', config: stepConfig, progress: sampleProgress() });
    expect(configFromCheckpoint(base, ppo.metadata).policy.history_spacing).toBe('step');
    // BC stacks demos step by step whatever its stored config says; the run's own setting stands.
    const bc = await bundleContents({ bundle, task: 'reach', stage: 'bc', config: stepConfig, step: 40 });
    expect(configFromCheckpoint(base, bc.metadata).policy.history_spacing).toBe('decision');
  });
});

describe('policy checkpoints: the denoised-action clamp', () => {
  it('configFromCheckpoint takes the clamp the checkpoint\'s run used, part of its deterministic policy; 0 when the file has none', async () => {
    const clamped = { ...config, policy: { ...config.policy, denoised_clamp: 0.75 } };
    const base = { ...defaultConfig(), policy: { ...defaultConfig().policy, denoised_clamp: 2 } };
    const ppo = await bundleContents({ bundle, task: 'reach', stage: 'ppo', config: clamped, progress: sampleProgress() });
    expect(configFromCheckpoint(base, ppo.metadata).policy.denoised_clamp).toBe(0.75);
    expect(storedDenoisedClamp(ppo.metadata)).toBe(0.75);
    // A file from before the option (or with a value no config allows) ran without a clamp.
    const { denoised_clamp: _clamp, ...olderPolicy } = clamped.policy;
    const older = { ...ppo.metadata, config: { ...ppo.metadata.config, policy: olderPolicy } };
    expect(configFromCheckpoint(base, older).policy.denoised_clamp).toBe(0);
    const bad = { ...ppo.metadata, config: { ...ppo.metadata.config, policy: { ...olderPolicy, denoised_clamp: -1 } } };
    expect(storedDenoisedClamp(bad)).toBe(0);
  });
});

describe('policy checkpoints: the observation clamp', () => {
  it('rides with the obs normalizer in .flowtune and tfjs, decides policy.obs_clip, and a run\'s value replaces it', async () => {
    const clipped = { ...config, policy: { ...config.policy, obs_clip: 0.5 } };
    const contents = await bundleContents({ bundle: withObsClip(bundle, 0.5), task: 'reach', stage: 'ppo', config: clipped, progress: sampleProgress() });
    expect(contents.metadata.normalizer.obs).toMatchObject({ clip: 0.5 });
    const { modelJson, weightsBin } = exportTfjs(contents);
    for (const decoded of [decodePolicyCheckpoint(encodeFlowtune(contents)), decodeTfjsPolicyCheckpoint(modelJson, weightsBin)]) {
      expect(decoded.obsNormalizer.clip).toBe(0.5);
      expect(decoded.actionNormalizer.clip).toBeUndefined();
      expect(configFromCheckpoint(defaultConfig(), decoded.metadata).policy.obs_clip).toBe(0.5);
      // Without a run's settings the file's clamp stands; a run's obs_clip (0 = none) replaces it.
      expect(bundleFromCheckpoint(decoded).bundle.obsNormalizer.clip).toBe(0.5);
      const unclamped = bundleFromCheckpoint(decoded, { detach_critic_input: true, obs_clip: 0 });
      const wider = bundleFromCheckpoint(decoded, { detach_critic_input: true, obs_clip: 3 });
      expect(unclamped.bundle.obsNormalizer.clip).toBeUndefined();
      expect(wider.bundle.obsNormalizer.clip).toBe(3);
      unclamped.bundle.policy.dispose();
      wider.bundle.policy.dispose();
    }
    // A file without one (every file from before the option) runs unclamped.
    const plain = await bundleContents({ bundle, task: 'reach', stage: 'bc', config });
    expect(plain.metadata.normalizer.obs).not.toHaveProperty('clip');
    expect(configFromCheckpoint(clipped, plain.metadata).policy.obs_clip).toBe(0);
  });

  it('a clamp that is not a positive number is refused in one sentence', async () => {
    const contents = await bundleContents({ bundle, task: 'reach', stage: 'bc', config });
    const obs = contents.metadata.normalizer.obs as Record<string, unknown>;
    for (const clip of [-2, 'wide']) {
      const hostile = { ...contents, metadata: { ...contents.metadata, normalizer: { ...contents.metadata.normalizer, obs: { ...obs, clip } } } };
      const load = () => loadBundle(encodeFlowtune(hostile));
      expect(load).toThrow(CheckpointError);
      expect(load).toThrow(`checkpoint normalizer 'obs' is invalid: obs_normalizer.clip must be a positive number when set, got ${clip}`);
    }
  });
});

describe('policy checkpoints: the BC reference policy', () => {
  /** A reference unlike the live weights: every value shifted by 1. */
  async function shiftedReference() {
    const weights = await bundle.policy.getWeights();
    for (const entry of weights.values()) entry.data = entry.data.map((value) => value + 1);
    return weights;
  }

  it('rides under reference.* in .flowtune (float32 even in an F16 file) and tfjs, apart from the model tensors', async () => {
    const reference = await shiftedReference();
    const contents = await bundleContents({ bundle, task: 'reach', stage: 'ppo', config, progress: sampleProgress(), reference });
    const model = await bundle.policy.getWeights();
    const halfBytes = encodeFlowtune(contents, { dtype: 'F16' });
    const summary = inspectFlowtune(halfBytes);
    expect([...summary.tensors.keys()]).toEqual([...model.keys()]);
    expect([...summary.referenceTensors.keys()]).toEqual([...reference.keys()]);
    expect([...summary.referenceTensors.values()].every((tensor) => tensor.dtype === 'F32')).toBe(true);
    const { modelJson, weightsBin } = exportTfjs(contents);
    for (const checkpoint of [decodePolicyCheckpoint(encodeFlowtune(contents)), decodePolicyCheckpoint(halfBytes), decodeTfjsPolicyCheckpoint(modelJson, weightsBin)]) {
      expect([...checkpoint.tensors.keys()]).toEqual([...model.keys()]);
      for (const [name, entry] of reference) {
        expect([...bitsOf(checkpoint.reference!.get(name)!.data)], name).toEqual([...bitsOf(entry.data)]);
        expect(checkpoint.reference!.get(name)!.shape).toEqual(entry.shape);
      }
    }
    // A file written without one has none.
    expect(decodePolicyCheckpoint(await fileBytes(true)).reference).toBeUndefined();
    expect(inspectFlowtune(await fileBytes(true)).referenceTensors.size).toBe(0);
  });

  it('a reference that does not fit the architecture, or a model tensor under its prefix, is refused', async () => {
    const missing = await shiftedReference();
    missing.delete('velocity.output.bias');
    const missingBytes = encodeFlowtune(await bundleContents({ bundle, task: 'reach', stage: 'ppo', config, progress: sampleProgress(), reference: missing }));
    expect(() => decodePolicyCheckpoint(missingBytes)).toThrow(/^checkpoint has no reference tensor velocity\.output\.bias, which the model needs$/);
    const wrong = await shiftedReference();
    wrong.set('value.output.bias', { shape: [2], data: new Float32Array(2) });
    const wrongBytes = encodeFlowtune(await bundleContents({ bundle, task: 'reach', stage: 'ppo', config, progress: sampleProgress(), reference: wrong }));
    expect(() => decodePolicyCheckpoint(wrongBytes)).toThrow(/^reference tensor value\.output\.bias has shape \[2\], expected \[1\]$/);
    const contents = await bundleContents({ bundle, task: 'reach', stage: 'bc', config });
    contents.tensors.set('reference.velocity.output.bias', { shape: [1], data: new Float32Array(1) });
    expect(() => encodeFlowtune(contents)).toThrow("model tensor reference.velocity.output.bias may not start with 'reference.', which marks the BC reference policy");
  });
});

describe('policy checkpoints: bad files', () => {
  /** Loading must fail with a CheckpointError matching `message`, leaking no tensor. */
  function expectRejected(load: () => LoadedBundle, message: RegExp): void {
    const tensors = tf.memory().numTensors;
    let caught: unknown;
    try {
      load().bundle.policy.dispose();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CheckpointError);
    expect((caught as Error).message).toMatch(message);
    expect(tf.memory().numTensors).toBe(tensors);
  }

  /** Byte offset of a tensor's data in a .flowtune file. */
  function dataOffset(bytes: Uint8Array, name: string): number {
    const headerLength = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Record<string, { data_offsets: [number, number] }>;
    return 8 + headerLength + header[name].data_offsets[0];
  }

  it('corrupt header', async () => {
    const bytes = await fileBytes();
    bytes[9] = 0xff;
    expectRejected(() => loadBundle(bytes), /^checkpoint header is not valid UTF-8 JSON, so the file is corrupt or not a \.flowtune file$/);
  });

  it('truncated: inside the tensor data, and inside the header', async () => {
    const bytes = await fileBytes();
    expectRejected(() => loadBundle(bytes.slice(0, bytes.length - 10)), new RegExp(`^the file is cut short \\(${bytes.length - 10} of ${bytes.length} bytes\\): tensor \\S+ has data_offsets \\[\\d+,\\d+\\] beyond the \\d+-byte data section$`));
    expectRejected(() => loadBundle(bytes.slice(0, 200)), /^checkpoint is truncated or not a \.flowtune file: its header length field says \d+ bytes but only 192 follow$/);
    expectRejected(() => loadBundle(bytes.slice(0, 5)), /^checkpoint is 5 bytes, too short to hold the 8-byte header length/);
  });

  it('another task', async () => {
    const bytes = await fileBytes();
    expectRejected(() => loadBundle(bytes, { expectedTask: 'lift' }), /^checkpoint is for task 'reach' but the run is 'lift'$/);
  });

  it('another architecture: obs or action size of the run env', async () => {
    const bytes = await fileBytes();
    expectRejected(() => loadBundle(bytes, { expected: { obsFrameSize: 11 } }), /^checkpoint expects observation frames of 10 values, but the run's env gives 11$/);
    expectRejected(() => loadBundle(bytes, { expected: { actionDim: 8 } }), /^checkpoint has actionDim 4, but the run's env needs 8$/);
  });

  it('a non-finite weight', async () => {
    const bytes = await fileBytes();
    new DataView(bytes.buffer).setFloat32(dataOffset(bytes, 'velocity.output.bias') + 4, NaN, true);
    expectRejected(() => loadBundle(bytes), /^tensor velocity\.output\.bias has a non-finite value \(NaN\) at element 1$/);
  });

  it('tfjs: weights of another size and a model.json that is not JSON', async () => {
    const { modelJson, weightsBin } = exportTfjs(await bundleContents({ bundle, task: 'reach', stage: 'bc', config }));
    expectRejected(() => bundleFromCheckpoint(decodeTfjsPolicyCheckpoint(modelJson.slice(0, 40), weightsBin)), /^model\.json is not valid JSON$/);
    expectRejected(() => bundleFromCheckpoint(decodeTfjsPolicyCheckpoint(modelJson, weightsBin, { expectedTask: 'pick-cube' })), /^checkpoint is for task 'reach' but the run is 'pick-cube'$/);
    expect(() => decodeTfjsPolicyCheckpoint(modelJson, weightsBin.slice(0, weightsBin.length - 8))).toThrow(CheckpointError);
  });

  it('optimizer state that does not fit the architecture: an unknown parameter, a slot of the wrong size', async () => {
    const progress = sampleProgress();
    const unknown: RunProgress = { ...progress, actor: { step: 7, slots: new Map([...progress.actor.slots, ['velocity.extra.kernel', { m: new Float32Array(4), v: new Float32Array(4) }]]) } };
    const unknownBytes = encodeFlowtune(await bundleContents({ bundle, task: 'reach', stage: 'ppo', config, progress: unknown }));
    expectRejected(() => loadBundle(unknownBytes), /^checkpoint optimizer state 'actor' has moments for 'velocity\.extra\.kernel', which this policy architecture does not have$/);
    // The writer takes slot shapes from the policy, so a wrong-size slot is written by hand.
    const wrongSize = await bundleContents({ bundle, task: 'reach', stage: 'ppo', config, progress });
    wrongSize.optimizer!.tensors.set('critic.value.output.bias.m', { shape: [3], data: new Float32Array(3) });
    wrongSize.optimizer!.tensors.set('critic.value.output.bias.v', { shape: [3], data: new Float32Array(3) });
    const wrongBytes = encodeFlowtune(wrongSize);
    expectRejected(() => loadBundle(wrongBytes), /^checkpoint optimizer state 'critic' for 'value\.output\.bias' has shape \[3\], but the parameter has shape \[1\]$/);
  });

  it('a policy with a NaN weight is never written', async () => {
    const weights = await bundle.policy.getWeights();
    weights.get('encoder.layers.0.bias')!.data[2] = NaN;
    bundle.policy.setWeights(weights);
    const contents = await bundleContents({ bundle, task: 'reach', stage: 'bc', config });
    expect(() => encodeFlowtune(contents)).toThrow(/^tensor encoder\.layers\.0\.bias has a non-finite value \(NaN\) at element 2$/);
  });
});
