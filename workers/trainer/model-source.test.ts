import { describe, expect, it } from 'vitest';
import { shippedCheckpointPath } from './model-source';

describe('model source', () => {
  it('names the shipped file of each observation kind', () => {
    expect(shippedCheckpointPath('pick-cube', 'state')).toBe('checkpoints/pick-cube-bc.flowtune');
    expect(shippedCheckpointPath('pick-cube', 'pointcloud')).toBe('checkpoints/pick-cube-pointcloud-bc.flowtune');
    expect(shippedCheckpointPath('pick-cube', 'depth_pointcloud')).toBe('checkpoints/pick-cube-depth-pointcloud-bc.flowtune');
    // A camera-image policy never starts from the state checkpoint: its own file (README: pick-cube-rgb-bc.flowtune).
    expect(shippedCheckpointPath('pick-cube', 'rgb')).toBe('checkpoints/pick-cube-rgb-bc.flowtune');
    expect(shippedCheckpointPath('pick-cube', 'rgbd')).toBe('checkpoints/pick-cube-rgbd-bc.flowtune');
  });
});
