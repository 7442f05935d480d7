import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { applyOverrides, defaultConfig } from '../config';
import { observationSpec } from '../envs/observation';
import { getTask } from '../envs/task-registry';
import { ConfigError } from '../errors';
import { FlowPolicy } from '../policy/flow-policy';
import { MinMaxNormalizer } from '../policy/normalizer';
import { createRng } from '../random';
import { policyOptionsFromConfig } from '../rl/policy-setup';
import { runConfigForCheckpoint } from '../run/checkpoint-run-config';
import type { FlowtuneContents } from './checkpoint-writer';
import { decodePolicyCheckpoint, loadBundle } from './fixtures/decode-bytes';
import { encodeFlowtune } from './flowtune-file';
import { bundleContents, configFromCheckpoint } from './policy-checkpoint';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const UNET = ['task=reach', 'policy.velocity_net=unet1d', 'policy.unet_dims=8,16', 'policy.unet_kernel=3', 'policy.unet_groups=4', 'policy.horizon=4',
  'policy.n_action_steps=2', 'policy.encoder_hidden=8', 'policy.value_hidden=8', 'policy.noise_head_hidden=8'];
const config = applyOverrides(defaultConfig(), UNET);
const frameSize = observationSpec(getTask('reach'), 'state', 0).dim;

/** A saved UNet1D policy with every weight moved off its init, and the live policy it came from. */
async function unetContents(): Promise<{ contents: FlowtuneContents; policy: FlowPolicy }> {
  const policy = new FlowPolicy(policyOptionsFromConfig(config, frameSize, 4), 2);
  const rng = createRng(9);
  const weights = await policy.getWeights();
  for (const entry of weights.values()) entry.data = entry.data.map((value) => value + 0.2 * rng.normal());
  policy.setWeights(weights);
  const bundle = {
    policy,
    obsNormalizer: new MinMaxNormalizer({ min: new Array(frameSize).fill(-1), max: new Array(frameSize).fill(1) }),
    actionNormalizer: new MinMaxNormalizer({ min: [-1, -1, -1, -1], max: [1, 1, 1, 1] }),
  };
  return { contents: await bundleContents({ bundle, task: 'reach', stage: 'bc', config, step: 3 }), policy };
}

/** Velocity and noise std of `policy` on fixed inputs, as flat arrays. */
async function outputs(policy: FlowPolicy): Promise<Float32Array[]> {
  const rng = createRng(4);
  const batch = 3;
  const tensors = tf.tidy(() => {
    const features = policy.encode({ state: tf.tensor2d(rng.fillNormal(new Float32Array(batch * 2 * frameSize)), [batch, 2 * frameSize]) });
    const t = tf.tensor1d([0.75, 0.5, 0.25]);
    const d = tf.fill([batch], 0.25) as tf.Tensor1D;
    const { velocity, hidden } = policy.velocity(tf.tensor3d(rng.fillNormal(new Float32Array(batch * 16)), [batch, 4, 4]), t, d, features);
    return [velocity, hidden, policy.noiseStd(features, t, { stdMin: 0.05, stdMax: 0.3 }, d), policy.value(features)];
  });
  const values = await Promise.all(tensors.map(async (tensor) => (await tensor.data()) as Float32Array));
  tf.dispose(tensors);
  return values;
}

describe('UNet1D checkpoints', () => {
  it('round-trip: the file records the UNet1D and its sizes, and the reloaded policy gives bit-identical outputs', async () => {
    const { contents, policy } = await unetContents();
    try {
      const bytes = encodeFlowtune(contents);
      const checkpoint = decodePolicyCheckpoint(bytes, { expectedTask: 'reach', expected: { obsEncoder: 'state', obsFrameSize: frameSize, actionDim: 4 } });
      expect(checkpoint.architecture).toMatchObject({ velocityNet: 'unet1d', unetDims: [8, 16], unetKernel: 3, unetGroups: 4, shortcut: true });
      expect(checkpoint.tensors.get('velocity.up.0.upsample.kernel')?.shape).toEqual([4, 8, 8]);
      expect(configFromCheckpoint(defaultConfig(), checkpoint.metadata).policy).toMatchObject({ velocity_net: 'unet1d', unet_dims: [8, 16], unet_kernel: 3, unet_groups: 4 });
      const loaded = loadBundle(bytes, { expectedTask: 'reach' });
      try {
        const [before, after] = [await outputs(policy), await outputs(loaded.bundle.policy)];
        after.forEach((values, index) => expect(Array.from(values)).toEqual(Array.from(before[index])));
      } finally {
        loaded.bundle.policy.dispose();
      }
    } finally {
      policy.dispose();
    }
  });

  it('a UNet1D tensor whose shape disagrees with the architecture is refused, naming the tensor', async () => {
    const { contents, policy } = await unetContents();
    policy.dispose();
    const tensors = new Map(contents.tensors);
    tensors.set('velocity.mid.res0.block0.conv.kernel', { shape: [5, 16, 16], data: new Float32Array(5 * 256) });
    expect(() => decodePolicyCheckpoint(encodeFlowtune({ ...contents, tensors })))
      .toThrow(/^tensor velocity\.mid\.res0\.block0\.conv\.kernel has shape \[5,16,16\], expected \[3,16,16\]$/);
  });

  it('an architecture whose groups do not divide a width is refused in one sentence', async () => {
    const { contents, policy } = await unetContents();
    policy.dispose();
    const metadata = { ...contents.metadata, architecture: { ...contents.metadata.architecture, unetGroups: 3 } };
    expect(() => decodePolicyCheckpoint(encodeFlowtune({ ...contents, metadata })))
      .toThrow(/^checkpoint architecture field 'unetGroups' is invalid: unetGroups \(3\) must divide every UNet1D width, but not 8 of unetDims \[8, 16\]$/);
  });

  it('overrides that would resize the saved UNet1D are refused, naming the key; equal ones pass', async () => {
    const { contents, policy } = await unetContents();
    policy.dispose();
    const { metadata } = decodePolicyCheckpoint(encodeFlowtune(contents));
    for (const [override, has] of [['policy.unet_dims=16,32', 'policy.unet_dims=8,16'], ['policy.unet_kernel=5', 'policy.unet_kernel=3'], ['policy.unet_groups=8', 'policy.unet_groups=4'], ['policy.velocity_net=ditx', 'policy.velocity_net=unet1d']]) {
      expect(() => runConfigForCheckpoint(defaultConfig(), metadata, [override])).toThrow(ConfigError);
      expect(() => runConfigForCheckpoint(defaultConfig(), metadata, [override]))
        .toThrow(`${override} contradicts the checkpoint, which has ${has}; drop the override or pretrain a new checkpoint`);
    }
    expect(runConfigForCheckpoint(defaultConfig(), metadata, ['policy.unet_dims=8,16', 'policy.denoise_steps=6']).policy).toMatchObject({ velocity_net: 'unet1d', unet_dims: [8, 16], denoise_steps: 6 });
  });
});
