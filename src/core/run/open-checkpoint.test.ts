import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import type { CheckpointFiles } from '../checkpoint/checkpoint-open';
import { bundleContents } from '../checkpoint/policy-checkpoint';
import { exportTfjs } from '../checkpoint/tfjs-format';
import { CheckpointError, ConfigError } from '../errors';
import { freshBundle } from '../rl/fixtures/test-support';
import { flowtuneFile, PICK_CUBE_PROPRIO as PROPRIO, PICK_CUBE_STATE, smallConfig } from './fixtures/test-checkpoints';
import { openCheckpoint, reopenCheckpoint } from './open-checkpoint';

const POINT_OVERRIDES = ['env.obs_type=pointcloud', 'env.num_points=16', 'policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=2', 'policy.ditx_heads=4'];

describe('openCheckpoint: the one way a host opens a checkpoint for a run', () => {
  let pointFile: CheckpointFiles & { kind: 'flowtune' };
  let stateFile: CheckpointFiles & { kind: 'flowtune' };
  beforeAll(async () => {
    await useNodeBackend('cpu');
    pointFile = await flowtuneFile('pc.flowtune', smallConfig(POINT_OVERRIDES), 16 * 3 + PROPRIO);
    stateFile = await flowtuneFile('state.flowtune', smallConfig(), PICK_CUBE_STATE);
  });

  it('takes the observation, point count and architecture the file declares into the run config, and decodes for that env', () => {
    // The base config observes state; the file is a 16-point DiT-X policy, so the run observes its points.
    const { checkpoint, config } = openCheckpoint(pointFile, smallConfig());
    expect(config.env.obs_type).toBe('pointcloud');
    expect(config.env.num_points).toBe(16);
    expect(config.policy.velocity_net).toBe('ditx');
    expect(config.policy.denoise_steps).toBe(3);
    expect(checkpoint.kind === 'flow' && checkpoint.architecture.numPoints).toBe(16);
    // And back: a state file into a point-cloud base config.
    expect(openCheckpoint(stateFile, smallConfig(POINT_OVERRIDES)).config.env.obs_type).toBe('state');
  });

  it('reads a tfjs model.json with its weights the same way', async () => {
    const bundle = freshBundle(smallConfig(POINT_OVERRIDES), 16 * 3 + PROPRIO, 4, 3);
    try {
      const { modelJson, weightsBin } = exportTfjs(await bundleContents({ bundle, task: 'pick-cube', stage: 'bc', config: smallConfig(POINT_OVERRIDES) }));
      const { config } = openCheckpoint({ kind: 'tfjs', name: 'model.json', modelJson, weights: weightsBin }, smallConfig());
      expect(config.env.num_points).toBe(16);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('refuses another task, an override that contradicts the file, and a frame or action size the task\'s env does not give', async () => {
    expect(() => openCheckpoint(stateFile, smallConfig(['task=lift']))).toThrow(new CheckpointError("checkpoint is for task 'pick-cube' but the run is 'lift'"));
    expect(() => openCheckpoint(stateFile, smallConfig(), ['policy.horizon=8'])).toThrow(ConfigError);
    const wrongFrame = await flowtuneFile('frame.flowtune', smallConfig(POINT_OVERRIDES), 16 * 3 + 9);
    expect(() => openCheckpoint(wrongFrame, smallConfig())).toThrow(`checkpoint expects observation frames of ${16 * 3 + 9} values, but the run's env gives ${16 * 3 + PROPRIO}`);
    // The action size tells the control mode: 8-D is joint control, which pick-cube has; no mode takes 5-D actions.
    const jointFile = await flowtuneFile('joint.flowtune', smallConfig(POINT_OVERRIDES), 16 * 3 + PROPRIO, 8);
    expect(openCheckpoint(jointFile, smallConfig()).config.env.control_mode).toBe('joint_delta_pos');
    const wrongAction = await flowtuneFile('act.flowtune', smallConfig(POINT_OVERRIDES), 16 * 3 + PROPRIO, 5);
    expect(() => openCheckpoint(wrongAction, smallConfig())).toThrow("checkpoint has actionDim 5, but the run's env needs 4");
  });

  it('reopens a checkpoint a run wrote for that run\'s config, refusing it for a run whose env differs', () => {
    const { config } = openCheckpoint(pointFile, smallConfig());
    const reopened = reopenCheckpoint(pointFile, config);
    expect(reopened.kind === 'flow' && reopened.architecture.numPoints).toBe(16);
    expect(() => reopenCheckpoint(pointFile, smallConfig())).toThrow(
      'checkpoint holds a DiT-X policy on point clouds, but this run\'s env gives state observations (env.obs_type=state); use env.obs_type=pointcloud',
    );
  });
});
