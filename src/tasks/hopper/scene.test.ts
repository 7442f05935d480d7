/**
 * The hopper's scene against Gymnasium's hopper.xml (reference data beside the project, skipped
 * when absent): the compiled models agree, and one seeded action sequence from the same initial
 * state gives the same qpos, qvel, reward and termination as Hopper-v5's formula in float64.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MjData, MjModel, Mujoco } from '../../core/envs/mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { getTask } from '../../core/envs/task-registry';
import { compileReference, expectModelsAgree, expectResetNoise, expectSameTrajectories, gymModelPath, referenceControlCost } from '../fixtures/gym-reference';
import { expectIslandsChangeNothing } from '../fixtures/island-check';

const REFERENCE = 'hopper.xml';

describe.skipIf(!gymModelPath(REFERENCE))("hopper against Gymnasium's hopper.xml", () => {
  let mj: Mujoco;
  let ours: MjModel;
  let reference: MjModel;
  beforeAll(async () => {
    mj = await loadMujocoNode();
    ours = mj.MjModel.from_xml_string(getTask('hopper').scene.xml);
    reference = compileReference(mj, REFERENCE);
  });
  afterAll(() => {
    ours?.delete();
    reference?.delete();
  });

  it('compiles to the same model: sizes, masses, inertias, joints, geoms, gears, timestep and integrator', () => {
    expect([ours.nq, ours.nv, ours.nu]).toEqual([6, 6, 3]);
    expectModelsAgree(ours, reference);
  });

  it('follows the same trajectory and reward as Hopper-v5 under a seeded action sequence, observed alike', () => {
    const dt = 0.002 * 4;
    const rules = {
      observe: (data: MjData) => [...(data.qpos as Float64Array).slice(1), ...Array.from(data.qvel as Float64Array, (value) => Math.min(10, Math.max(-10, value)))],
      before: (data: MjData) => [(data.qpos as Float64Array)[0]],
      after(data: MjData, action: Float64Array, [xBefore]: number[]) {
        const qpos = data.qpos as Float64Array;
        const qvel = data.qvel as Float64Array;
        const state = [...qpos.slice(2), ...qvel];
        const healthy = state.every((value) => value > -100 && value < 100) && qpos[1] > 0.7 && qpos[2] > -0.2 && qpos[2] < 0.2;
        const forward = 1 * ((qpos[0] - xBefore) / dt);
        const reward = forward + (healthy ? 1 : 0) - referenceControlCost(action, 1e-3);
        return { reward, terminated: !healthy };
      },
    };
    const steps = expectSameTrajectories(mj, 'hopper', reference, rules, { seeds: [1, 2, 3, 4, 5], steps: 200 });
    expect(steps).toBeGreaterThan(50);
  });

  it('resets from the model\'s default pose with v5\'s noise: U(±5e-3) on qpos and qvel', () => {
    expectResetNoise(mj, 'hopper', reference, { qpos: 'uniform', qvel: 'uniform', scale: 5e-3 });
  });
});

describe('hopper without island discovery', () => {
  it('steps to the same bits as with islands on', async () => {
    const mj = await loadMujocoNode();
    expect(getTask('hopper').islands).toBe(false);
    expect(expectIslandsChangeNothing(mj, getTask('hopper').scene.xml, { episodes: 3, steps: 300 })).toBe(900);
  });
});
