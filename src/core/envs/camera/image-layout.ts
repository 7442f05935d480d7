/**
 * Image layouts of camera observations (DESIGN.md §19): how many bytes one observation's images take,
 * which cameras a config asks for, and those names resolved against a compiled scene.
 */
import { ConfigError } from '../../errors';
import type { SceneModel } from '../scene-model';
import type { ImageLayout } from '../task-types';

/** The config's stand-in for the scene's first camera. */
export const DEFAULT_CAMERA = 'default';
export const DEFAULT_IMAGE_SIZE = 64;

/** Bytes of one observation's images: cameras × size × size × channels. */
export function imageBytes(layout: ImageLayout): number {
  return layout.cameras.length * layout.size * layout.size * layout.channels;
}

/** The camera names of a comma-separated env.camera value ('default' kept as it is). */
export function parseCameraList(text: string): string[] {
  return text.split(',').map((name) => name.trim()).filter((name) => name !== '');
}

/** The images an rgb or rgbd observation asks for, before the names meet a scene. */
export function requestedImageLayout(mode: 'rgb' | 'rgbd', cameras: readonly string[], size: number): ImageLayout {
  return { cameras: cameras.length > 0 ? [...cameras] : [DEFAULT_CAMERA], size, channels: mode === 'rgbd' ? 4 : 3 };
}

/** The scene's camera names in id order (an unnamed camera is '#id'). */
export function sceneCameraNames(scene: SceneModel): string[] {
  const { mj, model } = scene;
  return Array.from({ length: model.ncam }, (_, cameraId) => mj.mj_id2name(model, mj.mjtObj.mjOBJ_CAMERA.value, cameraId) ?? `#${cameraId}`);
}

/** `layout` with 'default' replaced by the scene's first camera and every name checked; one ConfigError sentence otherwise. */
export function resolveImageLayout(layout: ImageLayout, sceneCameras: readonly string[], taskName: string): ImageLayout {
  if (sceneCameras.length === 0) {
    throw new ConfigError('env.obs_type', `task '${taskName}' has no cameras (<camera> in its MJCF), so an image observation has nothing to render; use env.obs_type=state or pointcloud`);
  }
  const cameras = layout.cameras.map((name) => (name === DEFAULT_CAMERA ? sceneCameras[0] : name));
  const unknown = cameras.find((name) => !sceneCameras.includes(name));
  if (unknown !== undefined) throw new ConfigError('env.camera', `env.camera '${unknown}' is not a camera of task '${taskName}'; its cameras: ${sceneCameras.join(', ')}`);
  if (new Set(cameras).size !== cameras.length) throw new ConfigError('env.camera', `env.camera names a camera twice (${cameras.join(', ')}); name each at most once`);
  return { ...layout, cameras };
}

/** "front, wrist at 64×64 rgb": a layout in words, for messages. */
export function describeImageLayout(layout: ImageLayout): string {
  return `${layout.cameras.join(', ')} at ${layout.size}×${layout.size} ${layout.channels === 4 ? 'rgbd' : 'rgb'}`;
}

/** Whether two layouts hold the same cameras, in order, at the same size and channels. */
export function sameImageLayout(a: ImageLayout, b: ImageLayout): boolean {
  return a.size === b.size && a.channels === b.channels && a.cameras.length === b.cameras.length && a.cameras.every((name, index) => name === b.cameras[index]);
}
