import { CheckpointError } from '../../src/core/errors';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../src/cli/node-backend';
import type { CheckpointFiles, TrainerEvent } from '../../src/protocol/trainer-api';
import { flowtuneFile, PICK_CUBE_PROPRIO, PICK_CUBE_STATE, smallConfig } from '../../src/core/run/fixtures/test-checkpoints';
import { TrainingSession } from './training-session';

describe('TrainingSession.loadCheckpoint', () => {
  let pointFile: CheckpointFiles;
  let stateFile: CheckpointFiles;
  beforeAll(async () => {
    await useNodeBackend('cpu');
    const pointConfig = smallConfig(['env.obs_type=pointcloud', 'env.num_points=24', 'policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=1', 'policy.ditx_heads=2']);
    pointFile = await flowtuneFile('pc.flowtune', pointConfig, 24 * 3 + PICK_CUBE_PROPRIO);
    stateFile = await flowtuneFile('state.flowtune', smallConfig(), PICK_CUBE_STATE);
  });

  it('with no run, takes a point-cloud file\'s observation kind and point count, and back to state', () => {
    const session = new TrainingSession(smallConfig(['env.num_points=512']));
    const events: TrainerEvent[] = [];
    session.setListener((event) => events.push(event));
    const info = session.models.loadCheckpoint(pointFile);
    expect(info.architecture).toBe('point cloud 24 pts · DiT-X 16×1, 2 heads · H 4 · K 3 · act 4');
    expect(session.config.env.obs_type).toBe('pointcloud');
    expect(session.config.env.num_points).toBe(24);
    expect(session.config.policy.velocity_net).toBe('ditx');
    expect(events.map((event) => event.type)).toEqual(['config', 'model']);
    session.models.loadCheckpoint(stateFile);
    expect(session.config.env.obs_type).toBe('state');
    expect(session.models.selected?.info.source).toBe('state.flowtune');
  });

  it('a file of another observation kind is opened in full and becomes the next run\'s model', () => {
    const session = new TrainingSession(smallConfig());
    session.models.loadCheckpoint(stateFile);
    session.models.loadCheckpoint(pointFile);
    expect(session.models.selected?.info.source).toBe('pc.flowtune');
    expect(session.config.env.obs_type).toBe('pointcloud');
    expect(session.config.env.num_points).toBe(24);
    // A corrupt file changes nothing.
    const before = JSON.stringify(session.config);
    expect(() => session.models.loadCheckpoint({ kind: 'flowtune', name: 'junk.flowtune', bytes: new Uint8Array(64).fill(7) })).toThrow(CheckpointError);
    expect(JSON.stringify(session.config)).toBe(before);
    expect(session.models.selected?.info.source).toBe('pc.flowtune');
  });
});
