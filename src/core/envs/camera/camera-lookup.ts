/** A compiled model's cameras by name (DESIGN.md §19): the cameras a task's MJCF declares with `<camera name=...>`. */
import { ConfigError } from '../../errors';
import type { MjModel, Mujoco } from '../mujoco-types';

/** The model's named cameras in declaration order (an unnamed camera cannot be picked by a config). */
export function modelCameraNames(mj: Mujoco, model: MjModel): string[] {
  const names: string[] = [];
  for (let cameraId = 0; cameraId < model.ncam; cameraId++) {
    const name = mj.mj_id2name(model, mj.mjtObj.mjOBJ_CAMERA.value, cameraId);
    if (name) names.push(name);
  }
  return names;
}

function listed(names: readonly string[]): string {
  return names.length === 0 ? 'the scene names no <camera>' : `its cameras: ${names.join(', ')}`;
}

/** Id of the perspective camera `name`; a ConfigError names the camera and lists the model's cameras. */
export function cameraIdByName(mj: Mujoco, model: MjModel, name: string): number {
  const cameraId = mj.mj_name2id(model, mj.mjtObj.mjOBJ_CAMERA.value, name);
  if (cameraId < 0) throw new ConfigError('env.camera', `env.camera '${name}' is not a camera of the scene; ${listed(modelCameraNames(mj, model))}`);
  // An orthographic camera's rays are parallel, not cast from one point as mj_multiRay casts them.
  if ((model.cam_projection as Int32Array)[cameraId] === mj.mjtProjection.mjPROJ_ORTHOGRAPHIC.value) {
    throw new ConfigError('env.camera', `env.camera '${name}' is an orthographic camera; only perspective cameras are rendered`);
  }
  return cameraId;
}

/**
 * The camera names a config value picks: a comma-separated list, or 'default' (or empty) for the
 * scene's first camera; a scene without cameras is refused.
 */
export function resolveCameraNames(mj: Mujoco, model: MjModel, setting: string | undefined, taskName: string): string[] {
  const requested = (setting ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (requested.length === 0 || (requested.length === 1 && requested[0] === 'default')) {
    const names = modelCameraNames(mj, model);
    if (names.length === 0) throw new ConfigError('env.camera', `task '${taskName}' has no named camera in its scene, so it has no camera observation; add a <camera name=...> to its MJCF`);
    return [names[0]];
  }
  for (const name of requested) cameraIdByName(mj, model, name);
  const repeated = requested.find((name, index) => requested.indexOf(name) !== index);
  if (repeated !== undefined) throw new ConfigError('env.camera', `env.camera names camera '${repeated}' twice; list each camera once`);
  return requested;
}
