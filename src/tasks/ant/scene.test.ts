/**
 * The ant's scene against Gymnasium's ant.xml (reference data beside the project, skipped when
 * absent): the compiled models agree, and one seeded action sequence from the same initial state
 * gives the same qpos, qvel, reward and termination as Ant-v5's formula in float64 (the torso's
 * xpos as MuJoCo leaves it after the steps, contact wrenches from mj_rnePostConstraint).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MjData, MjModel, Mujoco } from '../../core/envs/mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { getTask } from '../../core/envs/task-registry';
import { VectorEnv } from '../../core/envs/vector-env';
import { compileReference, expectModelsAgree, expectResetNoise, expectSameTrajectories, gymModelPath, referenceControlCost } from '../fixtures/gym-reference';
import { expectIslandsChangeNothing } from '../fixtures/island-check';

const REFERENCE = 'ant.xml';

describe.skipIf(!gymModelPath(REFERENCE))("ant against Gymnasium's ant.xml", () => {
  let mj: Mujoco;
  let ours: MjModel;
  let reference: MjModel;
  beforeAll(async () => {
    mj = await loadMujocoNode();
    ours = mj.MjModel.from_xml_string(getTask('ant').scene.xml);
    reference = compileReference(mj, REFERENCE);
  });
  afterAll(() => {
    ours?.delete();
    reference?.delete();
  });

  it('compiles to the same model: sizes, masses, inertias, joints, geoms, gears, timestep and integrator', () => {
    expect([ours.nq, ours.nv, ours.nu, ours.nbody]).toEqual([15, 14, 8, 14]);
    expectModelsAgree(ours, reference);
  });

  it('follows the same trajectory and reward as Ant-v5 under a seeded action sequence, observed alike', () => {
    const dt = 0.01 * 5;
    const rules = {
      observe: (data: MjData) => [...(data.qpos as Float64Array).slice(2), ...(data.qvel as Float64Array), ...Array.from((data.cfrc_ext as Float64Array).slice(6), (value) => Math.min(1, Math.max(-1, value)))],
      before: (data: MjData) => [(data.xpos as Float64Array)[3], (data.xpos as Float64Array)[4]],
      after(data: MjData, action: Float64Array, [xBefore]: number[]) {
        const qpos = data.qpos as Float64Array;
        const qvel = data.qvel as Float64Array;
        let contact = 0;
        for (const value of data.cfrc_ext as Float64Array) contact += Math.min(1, Math.max(-1, value)) ** 2;
        const healthy = [...qpos, ...qvel].every(Number.isFinite) && qpos[2] >= 0.2 && qpos[2] <= 1;
        const forward = 1 * (((data.xpos as Float64Array)[3] - xBefore) / dt);
        const reward = forward + (healthy ? 1 : 0) - (referenceControlCost(action, 0.5) + 5e-4 * contact);
        return { reward, terminated: !healthy };
      },
    };
    const steps = expectSameTrajectories(mj, 'ant', reference, rules, { seeds: [1, 2, 3, 4, 5, 6, 7, 8], steps: 300 });
    expect(steps).toBeGreaterThan(100);
  });

  it('observes 105 numbers: qpos without x and y, qvel, and the clipped contact wrenches of 13 bodies', () => {
    const env = new VectorEnv(mj, { task: 'ant', numEnvs: 1, recordEpisodes: false });
    try {
      const first = env.reset([3]);
      expect(first.length).toBe(105);
      const view = env.env(0);
      expect(first[0]).toBeCloseTo(view.arrays.qpos[2], 6);
      // Right after a reset no contact wrench has been computed (as in Gymnasium).
      expect(first.subarray(27).every((value) => value === 0)).toBe(true);
      let touched = false;
      for (let step = 0; step < 20; step++) {
        const { obs } = env.step(new Float32Array(8));
        const wrenches = obs.subarray(27);
        expect(wrenches.every((value) => value >= -1 && value <= 1)).toBe(true);
        touched ||= wrenches.some((value) => value !== 0);
      }
      expect(touched).toBe(true);
    } finally {
      env.dispose();
    }
  });

  it('resets from the model\'s default pose with v5\'s noise: U(±0.1) on qpos and 0.1·N(0, 1) on qvel', () => {
    expectResetNoise(mj, 'ant', reference, { qpos: 'uniform', qvel: 'normal', scale: 0.1 });
  });
});

describe('ant without island discovery', () => {
  it('steps to the same bits as with islands on', async () => {
    const mj = await loadMujocoNode();
    expect(getTask('ant').islands).toBe(false);
    expect(expectIslandsChangeNothing(mj, getTask('ant').scene.xml, { episodes: 3, steps: 300 })).toBe(900);
  });
});
