import { describe, expect, it } from 'vitest';
import { shippedCheckpointPath } from './model-source';

describe('model source', () => {
  it('names the shipped file of each observation kind', () => {
    expect(shippedCheckpointPath('pick-cube', 'state')).toBe('checkpoints/pick-cube-bc.flowtune');
    expect(shippedCheckpointPath('pick-cube', 'pointcloud')).toBe('checkpoints/pick-cube-pointcloud-bc.flowtune');
  });
});
