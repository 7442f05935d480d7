import { describe, expect, it } from 'vitest';
import { TASK_NAMES } from '../../core/envs/task-types';
import { parseTaskVariant, POINT_CLOUD_TASKS, taskVariants } from './task-variants';

describe('task picker variants', () => {
  it('lists every task by its plain name, then its point-cloud variant where one ships', () => {
    const variants = taskVariants({ task: 'pick-cube', obsType: 'state' });
    expect(variants.filter((variant) => variant.obsType === 'state').map((variant) => variant.value)).toEqual([...TASK_NAMES]);
    expect(variants.filter((variant) => variant.obsType === 'pointcloud').map((variant) => variant.task)).toEqual([...POINT_CLOUD_TASKS]);
    const pickCube = variants.findIndex((variant) => variant.value === 'pick-cube');
    expect(variants[pickCube + 1]).toEqual({ task: 'pick-cube', obsType: 'pointcloud', value: 'pick-cube:pointcloud', label: 'pick-cube · point cloud' });
  });

  it('adds the current variant when no shipped checkpoint offers it, so the picker shows the config', () => {
    const variants = taskVariants({ task: 'lift', obsType: 'pointcloud' });
    expect(variants[variants.length - 1].value).toBe('lift:pointcloud');
    expect(taskVariants({ task: 'pick-cube', obsType: 'pointcloud' })).toHaveLength(TASK_NAMES.length + POINT_CLOUD_TASKS.length);
  });

  it('parses option values back, and refuses unknown ones', () => {
    expect(parseTaskVariant('reach')).toMatchObject({ task: 'reach', obsType: 'state' });
    expect(parseTaskVariant('pick-cube:pointcloud')).toMatchObject({ task: 'pick-cube', obsType: 'pointcloud' });
    expect(parseTaskVariant('push-t')).toBeUndefined();
    expect(parseTaskVariant('lift:voxels')).toBeUndefined();
  });
});
