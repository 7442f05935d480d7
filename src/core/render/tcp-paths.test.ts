import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from '../envs/mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { VectorEnv } from '../envs/vector-env';
import { createRng } from '../random';
import { ConfigError, ShapeError } from '../errors';
import { getTask } from '../envs/task-registry';
import type { TaskDefinition } from '../envs/task-definition';
import { finalChunks, tcpPaths as tcpPathsOf } from './tcp-paths';
import { observationState, stateRecord } from './observation-state';
import { POSE_STRIDE, episodePoses, visibleGeomIds } from './scene-visual';

describe('tcpPaths', () => {
  /** A built-in arm task, under its ee_delta_pos control. */
  const tcpPaths = (actions: Float32Array, count: number, horizon: number, actionDim: number, start: ArrayLike<number>) =>
    tcpPathsOf(getTask('pick-cube'), 'ee_delta_pos', actions, count, horizon, actionDim, start);

  it('adds 0.03 m per unit action, clipped to [-1, 1], from the start', () => {
    // One chain, H = 2, A = 4: a_0 = (1, -0.5, 2 → 1, g), a_1 = (-3 → -1, 0, 0.5, g).
    const actions = Float32Array.from([1, -0.5, 2, 0.7, -3, 0, 0.5, -1]);
    const paths = tcpPaths(actions, 1, 2, 4, [0.5, 0, 0.2]);
    // p1 = (0.5 + 0.03, 0 − 0.015, 0.2 + 0.03); p2 = p1 + (−0.03, 0, 0.015).
    const expected = [0.5, 0, 0.2, 0.53, -0.015, 0.23, 0.5, -0.015, 0.245];
    expected.forEach((value, index) => expect(paths[index]).toBeCloseTo(value, 6));
  });

  it('matches a float64 reference on random chunks, inside the workspace box', () => {
    const rng = createRng(21);
    const count = 5, horizon = 6, actionDim = 4;
    const actions = new Float32Array(count * horizon * actionDim).map(() => 3 * rng.normal());
    const start = [0.21, 0.44, 0.01];
    const paths = tcpPaths(actions, count, horizon, actionDim, start);
    const low = [0.2, -0.45, 0.005], high = [0.8, 0.45, 0.55];
    for (let chainIndex = 0; chainIndex < count; chainIndex++) {
      const point = [...start];
      for (let step = 0; step < horizon; step++) {
        for (let axis = 0; axis < 3; axis++) {
          const a = Math.min(1, Math.max(-1, actions[(chainIndex * horizon + step) * actionDim + axis]));
          point[axis] = Math.min(high[axis], Math.max(low[axis], point[axis] + 0.03 * a));
          expect(paths[(chainIndex * (horizon + 1) + step + 1) * 3 + axis]).toBeCloseTo(point[axis], 6);
        }
      }
    }
  });

  it('takes x_K of each chain and rejects bad shapes', () => {
    // M = 2, K = 1, H = 1, A = 3: chains [[x0, x1], [x0', x1']].
    const chains = Float32Array.from([0, 0, 0, 1, 2, 3, 9, 9, 9, 4, 5, 6]);
    expect(Array.from(finalChunks(chains, 2, 1, 1, 3))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(() => finalChunks(chains, 2, 2, 1, 3)).toThrow(ShapeError);
    expect(() => tcpPaths(new Float32Array(7), 1, 1, 8, [0, 0, 0])).toThrow(/expected \[M 1, H 1, A 8\]/);
    expect(() => tcpPaths(new Float32Array(2), 1, 1, 2, [0, 0, 0])).toThrow(/ee_delta_pos/);
    expect(() => tcpPaths(new Float32Array(3), 1, 1, 3, [0, 0])).toThrow(/start/);
  });

  it('refuses a control, or a task, whose actions imply no end-effector path', () => {
    const pick = getTask('pick-cube');
    expect(() => tcpPathsOf(pick, 'joint_delta_pos', new Float32Array(8), 1, 1, 8, [0, 0, 0])).toThrow(ConfigError);
    expect(() => tcpPathsOf(pick, 'joint_delta_pos', new Float32Array(8), 1, 1, 8, [0, 0, 0])).toThrow(/joint_delta_pos/);
    const noHint: TaskDefinition = { ...pick, render: {} };
    expect(() => tcpPathsOf(noHint, 'ee_delta_pos', new Float32Array(4), 1, 1, 4, [0, 0, 0])).toThrow(ConfigError);
  });
});

describe('observationState', () => {
  let mj: Mujoco;
  const envs: VectorEnv[] = [];
  beforeAll(async () => {
    mj = await loadMujocoNode();
  });
  afterAll(() => envs.forEach((env) => env.dispose()));

  for (const obsMode of ['state', 'pointcloud'] as const) {
    it(`rebuilds the reset scene from a ${obsMode} observation`, () => {
      const env = new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, obsMode, numPoints: 32 });
      envs.push(env);
      const obs = env.reset([8]);
      const view = env.env(0);
      const task = getTask('pick-cube');
      const state = observationState(env.scene, task, env.config.obsSpec, obs);
      expect(state.objectFromObservation).toBe(obsMode === 'state');
      const poses = episodePoses(env.scene, task, stateRecord(state, env.scene.nq));
      const xpos = view.arrays.geomXpos;
      const names = visibleGeomIds(env.scene).map((geomId) => [geomId, mj.mj_id2name(env.scene.model, mj.mjtObj.mjOBJ_GEOM.value, geomId)] as const);
      for (const [slot, [geomId, name]] of names.entries()) {
        // Pointcloud observations have no cube pose: the cube stays home.
        if (name === 'cube_geom' && obsMode === 'pointcloud') continue;
        for (let axis = 0; axis < 3; axis++) expect(poses.poses[slot * POSE_STRIDE + axis], `${name} axis ${axis}`).toBeCloseTo(xpos[geomId * 3 + axis], 4);
      }
      // The rebuilt end effector is where the observation's TCP is.
      const tcpSlice = env.config.obsSpec.slices.find((slice) => slice.name === 'tcp_pos')!;
      obs.subarray(tcpSlice.start, tcpSlice.start + 3).forEach((value, axis) => expect(poses.tcp[axis]).toBeCloseTo(value, 4));
      expect(() => observationState(env.scene, task, env.config.obsSpec, obs.subarray(1))).toThrow(ShapeError);
    });
  }
});
