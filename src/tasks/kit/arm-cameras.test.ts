import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import type { Mujoco } from '../../core/envs/task-api';
import { withVectorEnv } from '../../core/envs/fixtures/with-vector-env';
import { RayCastCamera } from '../../core/envs/camera/ray-cast-camera';
import { modelCameraNames } from '../../core/envs/camera/camera-lookup';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

/** Share of the pixels of `camera`'s 64 × 64 image on each named geom after a seeded reset of `task`. */
function geomShares(task: string, camera: string, geoms: readonly string[]): Record<string, number> {
  return withVectorEnv(mj, { task, numEnvs: 1 }, (env) => {
    env.reset([2]);
    const view = env.env(0);
    const renderer = new RayCastCamera(mj, env.scene.model, camera);
    try {
      const { geomIds } = renderer.render(view.data);
      const share = (geomId: number) => geomIds.filter((id) => id === geomId).length / geomIds.length;
      return Object.fromEntries([...geoms.map((name) => [name, share(view.id('geom', name))]), ['nothing', share(-1)]]);
    } finally {
      renderer.delete();
    }
  });
}

describe("the arm tasks' cameras", () => {
  it('are front, fixed on the workspace, then wrist, on the hand', () => {
    withVectorEnv(mj, { task: 'lift', numEnvs: 1 }, (env) => expect(modelCameraNames(mj, env.scene.model)).toEqual(['front', 'wrist']));
  });

  it('front sees the table, the cube and the arm', () => {
    const shares = geomShares('pick-cube', 'front', ['table', 'cube_geom', 'hand_geom']);
    expect(shares.table).toBeGreaterThan(0.3);
    expect(shares.cube_geom).toBeGreaterThan(0);
    expect(shares.hand_geom).toBeGreaterThan(0);
  });

  it('wrist looks down past both jaws at the table', () => {
    const shares = geomShares('pick-cube', 'wrist', ['table', 'finger_left_pad', 'finger_right_pad', 'hand_geom']);
    expect(shares.table).toBeGreaterThan(0.5);
    expect(shares.finger_left_pad).toBeGreaterThan(0);
    expect(shares.finger_right_pad).toBeGreaterThan(0);
    // It sits beside the hand and looks away from it, at the jaws.
    expect(shares.hand_geom).toBe(0);
    expect(shares.nothing).toBe(0);
  });
});
