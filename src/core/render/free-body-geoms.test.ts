import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import type { Mujoco } from '../envs/mujoco-types';
import { VectorEnv } from '../envs/vector-env';
import { freeBodyGeomSlots } from './free-body-geoms';
import { visibleGeomIds } from './scene-visual';

describe('freeBodyGeomSlots', () => {
  let mj: Mujoco;
  const envs: VectorEnv[] = [];
  beforeAll(async () => {
    mj = await loadMujocoNode();
  });
  afterAll(() => envs.forEach((env) => env.dispose()));

  const visibleNames = (env: VectorEnv, slots: number[]) => {
    const visible = visibleGeomIds(env.scene);
    return slots.map((slot) => mj.mj_id2name(env.scene.model, mj.mjtObj.mjOBJ_GEOM.value, visible[slot]));
  };

  it('finds the cube of pick-cube and nothing of the arm, the table or the goal marker', () => {
    const env = new VectorEnv(mj, { task: 'pick-cube', numEnvs: 1, obsMode: 'pointcloud', numPoints: 32 });
    envs.push(env);
    const slots = freeBodyGeomSlots(env.scene, visibleGeomIds(env.scene));
    expect(visibleNames(env, slots)).toEqual(['cube_geom']);
  });

  it('finds nothing in reach, whose scene has no loose object', () => {
    const env = new VectorEnv(mj, { task: 'reach', numEnvs: 1, obsMode: 'state', numPoints: 32 });
    envs.push(env);
    expect(freeBodyGeomSlots(env.scene, visibleGeomIds(env.scene))).toEqual([]);
  });
});
