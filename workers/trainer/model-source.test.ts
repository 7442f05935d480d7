import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../src/cli/node-backend';
import { bundleContents, decodePolicyCheckpoint } from '../../src/core/checkpoint/policy-checkpoint';
import { exportTfjs } from '../../src/core/checkpoint/tfjs-format';
import { freshBundle } from '../../src/core/rl/fixtures/test-support';
import type { CheckpointFiles } from '../../src/protocol/trainer-api';
import { declaredObservation, decodeFiles, describeArchitecture, shippedCheckpointPath } from './model-source';
import { flowtuneFile, PICK_CUBE_PROPRIO as PROPRIO, PICK_CUBE_STATE, smallConfig } from './fixtures/test-checkpoints';

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

  it('reads the observation kind and point count a file declares, from .flowtune and tfjs alike', async () => {
    expect(declaredObservation(pointFile)).toEqual({ obsType: 'pointcloud', numPoints: 16 });
    expect(declaredObservation(stateFile)).toEqual({ obsType: 'state' });
    const bundle = freshBundle(smallConfig(POINT_OVERRIDES), 16 * 3 + PROPRIO, 4, 3);
    try {
      const { modelJson, weightsBin } = exportTfjs(await bundleContents({ bundle, task: 'pick-cube', stage: 'bc', config: smallConfig(POINT_OVERRIDES) }));
      expect(declaredObservation({ kind: 'tfjs', name: 'model.json', modelJson, weights: weightsBin })).toEqual({ obsType: 'pointcloud', numPoints: 16 });
    } finally {
      bundle.policy.dispose();
    }
    // A file that cannot say leaves the decision to the full decode.
    expect(declaredObservation({ kind: 'flowtune', name: 'junk.flowtune', bytes: new Uint8Array(64).fill(7) })).toBeUndefined();
    expect(declaredObservation({ kind: 'tfjs', name: 'model.json', modelJson: '{not json', weights: new Uint8Array(0) })).toBeUndefined();
  });

  it('validates a point-cloud file against the env observing its own points, and refuses it for a state env', () => {
    const stateConfig = smallConfig();
    const checkpoint = decodeFiles(pointFile, 'pick-cube', stateConfig, { obsType: 'pointcloud', numPoints: 16 });
    expect(checkpoint.architecture.numPoints).toBe(16);
    expect(() => decodeFiles(pointFile, 'pick-cube', stateConfig)).toThrow(
      'checkpoint holds a DiT-X policy on point clouds, but this run\'s env gives state observations (env.obs_type=state); use env.obs_type=pointcloud',
    );
    // Another point count means another frame size: refused in one sentence.
    expect(() => decodeFiles(pointFile, 'pick-cube', stateConfig, { obsType: 'pointcloud', numPoints: 32 }))
      .toThrow(`checkpoint expects observation frames of ${16 * 3 + PROPRIO} values, but the run's env gives ${32 * 3 + PROPRIO}`);
  });

  it('still refuses a point-cloud file whose proprioception or action size does not fit the task', async () => {
    const stateConfig = smallConfig();
    const wrongFrame = await flowtuneFile('frame.flowtune', smallConfig(POINT_OVERRIDES), 16 * 3 + 9);
    const declared = declaredObservation(wrongFrame)!;
    expect(() => decodeFiles(wrongFrame, 'pick-cube', stateConfig, declared)).toThrow(`checkpoint expects observation frames of ${16 * 3 + 9} values, but the run's env gives ${16 * 3 + PROPRIO}`);
    const wrongAction = await flowtuneFile('act.flowtune', smallConfig(POINT_OVERRIDES), 16 * 3 + PROPRIO, 8);
    expect(() => decodeFiles(wrongAction, 'pick-cube', stateConfig, declaredObservation(wrongAction))).toThrow('checkpoint has actionDim 8, but the run\'s env needs 4');
  });

  it('names the shipped file of each observation kind', () => {
    expect(shippedCheckpointPath('pick-cube', 'state')).toBe('checkpoints/pick-cube-bc.flowtune');
    expect(shippedCheckpointPath('pick-cube', 'pointcloud')).toBe('checkpoints/pick-cube-pointcloud-bc.flowtune');
  });
});
