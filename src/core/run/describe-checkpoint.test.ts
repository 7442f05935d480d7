import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';

import { parseCheckpointFile } from '../checkpoint/checkpoint-file';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { applyOverrides, presetConfig } from '../config';
import { gaussianContents, decodeGaussianCheckpoint } from '../gaussian/gaussian-checkpoint';
import { gaussianBundle } from '../gaussian/gaussian-family';
import { describeCheckpointPolicy } from './describe-checkpoint';
import { flowtuneFile, PICK_CUBE_PROPRIO as PROPRIO, PICK_CUBE_STATE, smallConfig } from './fixtures/test-checkpoints';
import { decodePolicyCheckpoint } from '../checkpoint/fixtures/decode-bytes';

const POINT_OVERRIDES = ['env.obs_type=pointcloud', 'env.num_points=16', 'policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=2', 'policy.ditx_heads=4'];

describe('describeCheckpointPolicy', () => {
  beforeAll(async () => {
    await useNodeBackend('cpu');
  });

  it('describes a flow policy\'s observation, velocity net and sizes in one line', async () => {
    const pointFile = await flowtuneFile('pc.flowtune', smallConfig(POINT_OVERRIDES), 16 * 3 + PROPRIO);
    const stateFile = await flowtuneFile('state.flowtune', smallConfig(), PICK_CUBE_STATE);
    expect(describeCheckpointPolicy(decodePolicyCheckpoint(pointFile.bytes))).toBe('point cloud 16 pts · DiT-X 16×2, 4 heads · H 4 · K 3 · act 4');
    expect(describeCheckpointPolicy(decodePolicyCheckpoint(stateFile.bytes))).toBe('state · MLP [16, 16] · H 4 · K 3 · obs 39 · act 4');
  });

  it('names the UNet1D with its widths and kernel', async () => {
    const file = await flowtuneFile('unet.flowtune', smallConfig(['policy.velocity_net=unet1d', 'policy.unet_dims=8,16', 'policy.unet_groups=4', 'policy.unet_kernel=3']), PICK_CUBE_STATE);
    expect(describeCheckpointPolicy(decodePolicyCheckpoint(file.bytes))).toBe('state · UNet1D [8, 16], kernel 3 · H 4 · K 3 · obs 39 · act 4');
  });

  it('names ReinFlow\'s FlowMLP with its widths and activation', async () => {
    const file = await flowtuneFile('reflow.flowtune', smallConfig(['policy.velocity_net=reflow_mlp', 'policy.hidden=16,16,16']), PICK_CUBE_STATE);
    expect(describeCheckpointPolicy(decodePolicyCheckpoint(file.bytes))).toBe('state · ReinFlow FlowMLP [16, 16, 16], ReLU · H 4 · K 3 · obs 39 · act 4');
  });

  it('describes a Gaussian policy by its hidden widths and sizes', async () => {
    const config = applyOverrides(presetConfig('gaussian-ppo'), ['task=hopper', 'policy.gaussian_hidden=8,4']);
    const bundle = gaussianBundle(config, 11, 3);
    try {
      const bytes = encodeFlowtune(await gaussianContents({ bundle, config, stage: 'ppo' }));
      const checkpoint = decodeGaussianCheckpoint(parseCheckpointFile({ kind: 'flowtune', name: 'g.flowtune', bytes }));
      expect(describeCheckpointPolicy(checkpoint)).toBe('state · Gaussian MLP [8, 4] · obs 11 · act 3');
    } finally {
      bundle.policy.dispose();
    }
  });
});
