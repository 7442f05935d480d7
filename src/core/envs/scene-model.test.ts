import { beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from './mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { SceneModel } from './scene-model';

const XML = '<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

describe('SceneModel', () => {
  it("keeps MuJoCo's island discovery unless asked to switch it off", () => {
    const island = mj.mjtDisableBit.mjDSBL_ISLAND.value;
    const flags = (scene: SceneModel) => (scene.model.opt as unknown as { disableflags: number }).disableflags;
    const scenes = [new SceneModel(mj, { xml: XML, assets: new Map() }), new SceneModel(mj, { xml: XML, assets: new Map() }, undefined, 'test', { islands: false })];
    try {
      expect(flags(scenes[0]) & island).toBe(0);
      expect(flags(scenes[1]) & island).toBe(island);
    } finally {
      scenes.forEach((scene) => scene.dispose());
    }
  });
});
