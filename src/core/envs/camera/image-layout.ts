/**
 * Image layouts of camera observations (DESIGN.md §19): how many bytes one observation's images take,
 * which cameras a config asks for, and those names resolved against a compiled scene (camera-lookup).
 */
import type { MjModel, Mujoco } from '../mujoco-types';
import type { ImageLayout } from '../task-types';
import { DEFAULT_CAMERA, resolveCameraNames } from './camera-lookup';

/** Bytes of one observation's images: cameras × size × size × channels. */
export function imageBytes(layout: ImageLayout): number {
  return layout.cameras.length * layout.size * layout.size * layout.channels;
}

/** The images an rgb or rgbd observation asks for, before the names meet a scene. */
export function requestedImageLayout(mode: 'rgb' | 'rgbd', cameras: readonly string[], size: number): ImageLayout {
  return { cameras: cameras.length > 0 ? [...cameras] : [DEFAULT_CAMERA], size, channels: mode === 'rgbd' ? 4 : 3 };
}

/** `layout` with its cameras resolved against the compiled scene (camera-lookup's resolveCameraNames: 'default', unknown and repeated names). */
export function resolveImageLayout(layout: ImageLayout, mj: Mujoco, model: MjModel, taskName: string): ImageLayout {
  return { ...layout, cameras: resolveCameraNames(mj, model, layout.cameras, taskName) };
}

/** "front, wrist at 64×64 rgb": a layout in words, for messages. */
export function describeImageLayout(layout: ImageLayout): string {
  return `${layout.cameras.join(', ')} at ${layout.size}×${layout.size} ${layout.channels === 4 ? 'rgbd' : 'rgb'}`;
}

/** Whether two layouts hold the same cameras, in order, at the same size and channels. */
export function sameImageLayout(a: ImageLayout, b: ImageLayout): boolean {
  return a.size === b.size && a.channels === b.channels && a.cameras.length === b.cameras.length && a.cameras.every((name, index) => name === b.cameras[index]);
}
