import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../src/cli/node-backend';
import { decodePolicyCheckpoint } from '../../src/core/checkpoint/checkpoint-open';
import type { CheckpointFiles } from '../../src/protocol/trainer-api';
import { describeArchitecture, shippedCheckpointPath } from './model-source';
import { flowtuneFile, PICK_CUBE_PROPRIO as PROPRIO, PICK_CUBE_STATE, smallConfig } from '../../src/core/run/fixtures/test-checkpoints';

const POINT_OVERRIDES = ['env.obs_type=pointcloud', 'env.num_points=16', 'policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=2', 'policy.ditx_heads=4'];

describe('model source', () => {
  let pointFile: CheckpointFiles & { kind: 'flowtune' };
  let stateFile: CheckpointFiles & { kind: 'flowtune' };
  beforeAll(async () => {
    await useNodeBackend('cpu');
    pointFile = await flowtuneFile('pc.flowtune', smallConfig(POINT_OVERRIDES), 16 * 3 + PROPRIO);
    stateFile = await flowtuneFile('state.flowtune', smallConfig(), PICK_CUBE_STATE);
  });

  it('describes the observation, the velocity net and the sizes in one line', () => {
    const line = (file: CheckpointFiles & { kind: 'flowtune' }) => describeArchitecture(decodePolicyCheckpoint(file.bytes));
    expect(line(pointFile)).toBe('point cloud 16 pts · DiT-X 16×2, 4 heads · H 4 · K 3 · act 4');
    expect(line(stateFile)).toBe('state · MLP [16, 16] · H 4 · K 3 · obs 39 · act 4');
  });

  it('names the shipped file of each observation kind', () => {
    expect(shippedCheckpointPath('pick-cube', 'state')).toBe('checkpoints/pick-cube-bc.flowtune');
    expect(shippedCheckpointPath('pick-cube', 'pointcloud')).toBe('checkpoints/pick-cube-pointcloud-bc.flowtune');
  });
});
