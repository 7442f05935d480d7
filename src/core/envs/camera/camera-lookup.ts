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

/** The config's stand-in for the scene's first camera (env.camera=default). */
export const DEFAULT_CAMERA = 'default';

/** The camera names of a comma-separated env.camera value ('default' kept as it is; empty parts dropped). */
export function parseCameraList(text: string): string[] {
  return text.split(',').map((name) => name.trim()).filter((name) => name !== '');
}

/**
 * The cameras a config picks, in order, as the scene names them: env.camera's names (a list, or its
 * comma-separated text), 'default' (or nothing) standing for the scene's first named camera. A scene
 * without cameras, a name the scene lacks, an orthographic camera and a repeated name are refused,
 * each with one ConfigError sentence. Depth clouds and camera images both resolve their cameras here.
 */
export function resolveCameraNames(mj: Mujoco, model: MjModel, setting: string | readonly string[] | undefined, taskName: string): string[] {
  const requested = typeof setting === 'string' ? parseCameraList(setting) : [...(setting ?? [])];
  const sceneCameras = modelCameraNames(mj, model);
  if (sceneCameras.length === 0) {
    throw new ConfigError('env.camera', `task '${taskName}' has no named camera in its scene, so it has no camera observation; add a <camera name=...> to its MJCF`);
  }
  const cameras = requested.length === 0 ? [sceneCameras[0]] : requested.map((name) => (name === DEFAULT_CAMERA ? sceneCameras[0] : name));
  const unknown = cameras.find((name) => !sceneCameras.includes(name));
  if (unknown !== undefined) throw new ConfigError('env.camera', `env.camera '${unknown}' is not a camera of task '${taskName}'; ${listed(sceneCameras)}`);
  for (const name of cameras) cameraIdByName(mj, model, name);
  const repeated = cameras.find((name, index) => cameras.indexOf(name) !== index);
  if (repeated !== undefined) throw new ConfigError('env.camera', `env.camera names camera '${repeated}' twice; list each camera once`);
  return cameras;
}
