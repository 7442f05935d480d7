import { describe, expect, it } from 'vitest';
import type { TaskEntry } from '../../protocol/trainer-api';
import { parseTaskVariant, taskVariants } from './task-variants';

/** Three tasks as the trainer lists them: one with a shipped point-cloud checkpoint and a camera, one a user's. */
const TASKS: TaskEntry[] = [
  { name: 'alpha', doc: '', builtIn: true, obsTypes: ['state'], hasSuccess: true, hasExpert: true },
  { name: 'beta', doc: '', builtIn: true, obsTypes: ['state', 'pointcloud', 'depth_pointcloud', 'rgb'], hasSuccess: true, hasExpert: true },
  { name: 'my-hopper', doc: '', builtIn: false, obsTypes: ['state'], hasSuccess: false, hasExpert: false },
];

describe('task picker variants', () => {
  it('lists every task by its plain name, with its point-cloud variants right after where it offers them', () => {
    const variants = taskVariants(TASKS, { task: 'beta', obsType: 'state' });
    expect(variants.map((variant) => variant.value)).toEqual(['alpha', 'beta', 'beta:pointcloud', 'beta:depth_pointcloud', 'beta:rgb', 'my-hopper']);
    expect(variants[2]).toEqual({ task: 'beta', obsType: 'pointcloud', value: 'beta:pointcloud', label: 'beta · point cloud' });
    expect(variants[3]).toEqual({ task: 'beta', obsType: 'depth_pointcloud', value: 'beta:depth_pointcloud', label: 'beta · depth point cloud' });
    expect(variants[4]).toEqual({ task: 'beta', obsType: 'rgb', value: 'beta:rgb', label: 'beta · camera rgb' });
  });

  it('adds the current variant when no task offers it, so the picker shows the config', () => {
    const variants = taskVariants(TASKS, { task: 'alpha', obsType: 'pointcloud' });
    expect(variants.at(-1)!.value).toBe('alpha:pointcloud');
    expect(taskVariants(TASKS, { task: 'beta', obsType: 'pointcloud' })).toHaveLength(6);
    // A config on rgbd (from a link or a checkpoint) shows as its own entry, though the picker offers rgb only.
    expect(taskVariants(TASKS, { task: 'beta', obsType: 'rgbd' }).at(-1)).toEqual({ task: 'beta', obsType: 'rgbd', value: 'beta:rgbd', label: 'beta · camera rgbd' });
  });

  it('parses option values back, and refuses unknown tasks and variants no task offers', () => {
    expect(parseTaskVariant(TASKS, 'my-hopper')).toMatchObject({ task: 'my-hopper', obsType: 'state' });
    expect(parseTaskVariant(TASKS, 'beta:pointcloud')).toMatchObject({ task: 'beta', obsType: 'pointcloud' });
    expect(parseTaskVariant(TASKS, 'beta:depth_pointcloud')).toMatchObject({ task: 'beta', obsType: 'depth_pointcloud' });
    expect(parseTaskVariant(TASKS, 'alpha:pointcloud')).toBeUndefined();
    expect(parseTaskVariant(TASKS, 'beta:rgb')).toMatchObject({ task: 'beta', obsType: 'rgb' });
    expect(parseTaskVariant(TASKS, 'alpha:depth_pointcloud')).toBeUndefined();
    expect(parseTaskVariant(TASKS, 'alpha:rgb')).toBeUndefined();
    expect(parseTaskVariant(TASKS, 'beta:rgbd')).toBeUndefined();
    expect(parseTaskVariant(TASKS, 'alpha:state')).toBeUndefined();
    expect(parseTaskVariant(TASKS, 'push-t')).toBeUndefined();
    expect(parseTaskVariant(TASKS, 'beta:voxels')).toBeUndefined();
  });
});
