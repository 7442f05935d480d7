import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { applyOverrides, defaultConfig } from '../config';
import { observationSpec } from '../envs/observation';
import { getTask } from '../envs/task-registry';
import { ConfigError } from '../errors';
import { FlowPolicy } from '../policy/flow-policy';
import { MinMaxNormalizer } from '../policy/normalizer';
import { policyOptionsFromConfig } from '../rl/policy-setup';
import { runConfigForCheckpoint } from '../run/checkpoint-run-config';
import type { FlowtuneContents } from './checkpoint-writer';
import { encodeFlowtune } from './flowtune-file';
import { bundleContents, configFromCheckpoint } from './policy-checkpoint';
import { decodePolicyCheckpoint } from './fixtures/decode-bytes';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const CLOUD = ['task=pick-cube', 'env.obs_type=pointcloud', 'env.num_points=16', 'policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=2',
  'policy.ditx_heads=2', 'policy.encoder_hidden=8,8', 'policy.value_hidden=8', 'policy.noise_head_hidden=8'];
const config = applyOverrides(defaultConfig(), CLOUD);
const frameSize = observationSpec(getTask('pick-cube'), 'pointcloud', 16).dim;

async function ditxContents(): Promise<FlowtuneContents> {
  const policy = new FlowPolicy(policyOptionsFromConfig(config, frameSize, 4), 2);
  try {
    const bundle = {
      policy,
      obsNormalizer: new MinMaxNormalizer({ min: new Array(frameSize).fill(-1), max: new Array(frameSize).fill(1) }),
      actionNormalizer: new MinMaxNormalizer({ min: [-1, -1, -1, -1], max: [1, 1, 1, 1] }),
    };
    return await bundleContents({ bundle, task: 'pick-cube', stage: 'bc', config, step: 10 });
  } finally {
    policy.dispose();
  }
}

describe('DiT-X point-cloud checkpoints', () => {
  it('round-trip: the file decides the velocity net, its sizes and the point cloud', async () => {
    const contents = await ditxContents();
    const checkpoint = decodePolicyCheckpoint(encodeFlowtune(contents), { expectedTask: 'pick-cube', expected: { obsEncoder: 'pointcloud', obsFrameSize: frameSize, actionDim: 4 } });
    expect(checkpoint.tensors.get('velocity.blocks.1.cross_attn.kv.kernel')?.shape).toEqual([16, 32]);
    expect(checkpoint.metadata.shape_meta.obs.point_cloud?.shape).toEqual([16, 3]);
    const fromFile = configFromCheckpoint(defaultConfig(), checkpoint.metadata);
    expect(fromFile.policy).toMatchObject({ velocity_net: 'ditx', ditx_dim: 16, ditx_depth: 2, ditx_heads: 2 });
    expect(fromFile.env).toMatchObject({ obs_type: 'pointcloud', num_points: 16 });
  });

  it("a depth-cloud checkpoint gives back its observation and cameras, which a later run may not change", async () => {
    const depthConfig = applyOverrides(config, ['env.obs_type=depth_pointcloud', 'env.camera=front,wrist', 'env.image_size=32']);
    const contents = await ditxContents();
    const metadata = { ...contents.metadata, config: depthConfig as unknown as typeof contents.metadata.config };
    const fromFile = configFromCheckpoint(defaultConfig(), metadata);
    expect(fromFile.env).toMatchObject({ obs_type: 'depth_pointcloud', camera: 'front,wrist', image_size: 32, num_points: 16 });
    expect(() => runConfigForCheckpoint(defaultConfig(), metadata, ['task=pick-cube', 'env.camera=front'])).toThrow(/env\.camera=front contradicts the checkpoint, which has env\.camera=front,wrist/);
    expect(runConfigForCheckpoint(defaultConfig(), metadata, ['task=pick-cube']).env).toMatchObject({ obs_type: 'depth_pointcloud', camera: 'front,wrist' });
  });

  it('a DiT-X tensor whose shape disagrees with the architecture is refused, naming the tensor', async () => {
    const contents = await ditxContents();
    const tensors = new Map(contents.tensors);
    tensors.set('velocity.blocks.0.self_attn.qkv.kernel', { shape: [16, 16], data: new Float32Array(256) });
    expect(() => decodePolicyCheckpoint(encodeFlowtune({ ...contents, tensors })))
      .toThrow(/^tensor velocity\.blocks\.0\.self_attn\.qkv\.kernel has shape \[16,16\], expected \[16,48\]$/);
  });

  it('an architecture whose heads do not divide the width is refused in one sentence', async () => {
    const contents = await ditxContents();
    const metadata = { ...contents.metadata, architecture: { ...contents.metadata.architecture, ditxHeads: 3 } };
    expect(() => decodePolicyCheckpoint(encodeFlowtune({ ...contents, metadata }))).toThrow(/checkpoint architecture field 'ditxHeads' is invalid: ditxHeads \(3\) must divide ditxDim \(16\)/);
  });

  it('a state run refuses the file with one sentence', async () => {
    const bytes = encodeFlowtune(await ditxContents());
    expect(() => decodePolicyCheckpoint(bytes, { expected: { obsEncoder: 'state' } }))
      .toThrow(/^checkpoint holds a DiT-X policy on point clouds, but this run's env gives state observations \(env\.obs_type=state\); use env\.obs_type=pointcloud$/);
    const { metadata } = decodePolicyCheckpoint(bytes);
    expect(() => runConfigForCheckpoint(defaultConfig(), metadata, ['task=pick-cube', 'env.obs_type=state'])).toThrow(ConfigError);
    expect(() => runConfigForCheckpoint(defaultConfig(), metadata, ['task=pick-cube', 'env.obs_type=state'])).toThrow(/env\.obs_type/);
  });
});
