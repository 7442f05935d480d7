/**
 * A small scene whose camera images are worked out by hand in the camera tests: a red box at the
 * origin, a blue-material box to its +y side, a green box in group 3 between them and the front camera,
 * a floor, and two perspective cameras (front, looking along −x; top, looking down) and an orthographic one.
 */
import { SceneModel } from '../scene-model';
import type { Mujoco } from '../mujoco-types';

export const CAMERA_TEST_XML = `<mujoco model="camera-test">
  <asset><material name="blue_paint" rgba="0 0 1 1"/></asset>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1" rgba="0.5 0.5 0.5 1"/>
    <geom name="box" type="box" size="0.1 0.1 0.1" pos="0 0 0.1" rgba="1 0 0 1"/>
    <geom name="right_box" type="box" size="0.1 0.1 0.1" pos="0 0.45 0.1" material="blue_paint"/>
    <geom name="group3_box" type="box" size="0.05 0.05 0.05" pos="0.5 0 0.1" rgba="0 1 0 1" group="3"/>
    <camera name="front" pos="1 0 0.1" xyaxes="0 1 0 0 0 1" fovy="60"/>
    <camera name="top" pos="0 0 1" xyaxes="1 0 0 0 1 0" fovy="60"/>
    <camera name="flat" pos="0 0 2" projection="orthographic" fovy="1"/>
  </worldbody>
</mujoco>`;

/** The scene compiled and forwarded once; the caller disposes both. */
export function openCameraTestScene(mj: Mujoco, xml = CAMERA_TEST_XML) {
  const scene = new SceneModel(mj, { xml, assets: new Map() });
  const data = scene.createData();
  mj.mj_forward(scene.model, data);
  const geom = (name: string) => scene.id('geom', name);
  return { scene, data, geom, dispose: () => { data.delete(); scene.dispose(); } };
}
