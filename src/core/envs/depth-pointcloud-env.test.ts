import { beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from './mujoco-types';
import { createNodeShardedEnv, loadMujocoNode } from '../../cli/mujoco-node';
import { withVectorEnv } from './fixtures/with-vector-env';
import { observationSpec } from './observation';
import { getTask } from './task-registry';
import { VectorEnv } from './vector-env';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

const PICK_CUBE_DEPTH = { task: 'pick-cube', numEnvs: 1, obsMode: 'depth_pointcloud', numPoints: 128, imageSize: 48 } as const;

describe('env.obs_type=depth_pointcloud', () => {
  it('lays its observation out as the surface-sampled cloud does: N points, then the point-cloud slices', () => {
    const task = getTask('pick-cube');
    const depth = observationSpec(task, 'depth_pointcloud', 128);
    const surface = observationSpec(task, 'pointcloud', 128);
    expect(depth.slices.map(({ name, start, dim }) => [name, start, dim])).toEqual(surface.slices.map(({ name, start, dim }) => [name, start, dim]));
    expect(depth.numPoints).toBe(128);
    expect(depth.slices[0].doc).toBe('128 depth-camera points [N, 3], world frame (m)');
  });

  it("puts pick-cube's points inside its workspace, some on the cube, none on the goal marker", () => {
    withVectorEnv(mj, PICK_CUBE_DEPTH, (env) => {
      const obs = env.reset([3]);
      const view = env.env(0);
      const xpos = view.data.xpos as Float64Array;
      const cube = Array.from(xpos.subarray(view.id('body', 'cube') * 3, view.id('body', 'cube') * 3 + 3));
      const goal = Array.from(view.arrays.mocapPos.subarray(0, 3));
      let onCube = 0;
      for (let point = 0; point < 128; point++) {
        const p = Array.from(obs.subarray(point * 3, point * 3 + 3));
        expect(p[0]).toBeGreaterThanOrEqual(-0.15);
        expect(p[0]).toBeLessThanOrEqual(0.95);
        expect(Math.abs(p[1])).toBeLessThanOrEqual(0.6);
        expect(p[2]).toBeGreaterThanOrEqual(0.005);
        // Within the 2 cm half-size cube's bounding sphere (√3·2 cm) of its centre.
        if (Math.hypot(p[0] - cube[0], p[1] - cube[1], p[2] - cube[2]) <= 0.0347) onCube++;
        // The 1.2 cm goal sphere is excluded from the task's clouds.
        expect(Math.hypot(p[0] - goal[0], p[1] - goal[1], p[2] - goal[2])).toBeGreaterThan(0.0119);
      }
      expect(onCube).toBeGreaterThan(0);
    });
  });

  it('gives the same bytes for the same seed in two batches, and moves with the state', () => {
    const first = withVectorEnv(mj, PICK_CUBE_DEPTH, (env) => {
      const reset = env.reset([5]).slice();
      const stepped = env.step(Float32Array.from([1, 0, -1, 1])).obs.slice();
      return { reset, stepped };
    });
    const again = withVectorEnv(mj, PICK_CUBE_DEPTH, (env) => env.reset([5]).slice());
    expect(Buffer.from(again.buffer).equals(Buffer.from(first.reset.buffer))).toBe(true);
    expect(Buffer.from(first.stepped.buffer).equals(Buffer.from(first.reset.buffer))).toBe(false);
  });

  it('renders the same bytes in env worker threads as in the calling thread', async () => {
    const config = { ...PICK_CUBE_DEPTH, numEnvs: 2, cameras: ['front', 'wrist'] };
    const actions = Float32Array.from([0.5, -0.5, -1, 1, -0.3, 0.2, -1, -1]);
    const local = withVectorEnv(mj, config, (env) => [env.reset([7, 8]).slice(), env.step(actions).obs.slice()]);
    const sharded = await createNodeShardedEnv(config, { numWorkers: 2 });
    try {
      const reset = (await sharded.reset([7, 8])).slice();
      const stepped = (await sharded.step(actions)).obs.slice();
      expect(Buffer.from(reset.buffer).equals(Buffer.from(local[0].buffer))).toBe(true);
      expect(Buffer.from(stepped.buffer).equals(Buffer.from(local[1].buffer))).toBe(true);
    } finally {
      await sharded.dispose();
    }
  });

  it('refuses an unknown camera, listing the task\'s cameras, and a task without cameras', () => {
    expect(() => new VectorEnv(mj, { ...PICK_CUBE_DEPTH, cameras: ['side'] })).toThrow(
      expect.objectContaining({ name: 'ConfigError', field: 'env.camera', message: "env.camera 'side' is not a camera of task 'pick-cube'; its cameras: front, wrist" }),
    );
    expect(() => new VectorEnv(mj, { task: 'hopper', numEnvs: 1, obsMode: 'depth_pointcloud' })).toThrow(
      "task 'hopper' has no named camera in its scene, so it has no camera observation; add a <camera name=...> to its MJCF",
    );
  });

  it("frees its cameras' buffers with the batch", () => {
    const env = new VectorEnv(mj, PICK_CUBE_DEPTH);
    const cameras = env.env(0).writer.depthPointCloud!.cameras;
    expect(cameras.map((camera) => camera.name)).toEqual(['front']);
    env.dispose();
    expect(cameras.every((camera) => camera.isDeleted)).toBe(true);
  });
});
