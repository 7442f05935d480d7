/**
 * The half-cheetah's scene against Gymnasium's half_cheetah.xml (reference data beside the project,
 * skipped when absent): the compiled models agree, and one seeded action sequence from the same
 * initial state gives the same qpos, qvel and reward as HalfCheetah-v5's formula in float64.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MjData, MjModel, Mujoco } from '../../core/envs/mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { getTask } from '../../core/envs/task-registry';
import { compileReference, expectModelsAgree, expectResetNoise, expectSameTrajectories, gymModelPath, referenceControlCost } from '../fixtures/gym-reference';
import { expectIslandsChangeNothing } from '../fixtures/island-check';

const REFERENCE = 'half_cheetah.xml';

describe.skipIf(!gymModelPath(REFERENCE))("halfcheetah against Gymnasium's half_cheetah.xml", () => {
  let mj: Mujoco;
  let ours: MjModel;
  let reference: MjModel;
  beforeAll(async () => {
    mj = await loadMujocoNode();
    ours = mj.MjModel.from_xml_string(getTask('halfcheetah').scene.xml);
    reference = compileReference(mj, REFERENCE);
  });
  afterAll(() => {
    ours?.delete();
    reference?.delete();
  });

  it('compiles to the same model: sizes, masses, inertias, joints, geoms, gears, timestep and integrator', () => {
    expect([ours.nq, ours.nv, ours.nu]).toEqual([9, 9, 6]);
    expectModelsAgree(ours, reference);
  });

  it('follows the same trajectory and reward as HalfCheetah-v5 under a seeded action sequence, observed alike', () => {
    const dt = 0.01 * 5;
    const rules = {
      observe: (data: MjData) => [...(data.qpos as Float64Array).slice(1), ...(data.qvel as Float64Array)],
      before: (data: MjData) => [(data.qpos as Float64Array)[0]],
      after(data: MjData, action: Float64Array, [xBefore]: number[]) {
        const forward = 1 * (((data.qpos as Float64Array)[0] - xBefore) / dt);
        return { reward: forward - referenceControlCost(action, 0.1), terminated: false };
      },
    };
    const steps = expectSameTrajectories(mj, 'halfcheetah', reference, rules, { seeds: [1, 2], steps: 300 });
    expect(steps).toBe(600);
  });

  it('resets from the model\'s default pose with v5\'s noise: U(±0.1) on qpos and 0.1·N(0, 1) on qvel', () => {
    expectResetNoise(mj, 'halfcheetah', reference, { qpos: 'uniform', qvel: 'normal', scale: 0.1 });
  });
});

describe('halfcheetah without island discovery', () => {
  it('steps to the same bits as with islands on', async () => {
    const mj = await loadMujocoNode();
    expect(getTask('halfcheetah').islands).toBe(false);
    expect(expectIslandsChangeNothing(mj, getTask('halfcheetah').scene.xml, { episodes: 3, steps: 300 })).toBe(900);
  });
});
