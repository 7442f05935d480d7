/**
 * Where camera images come from (DESIGN.md §19): a source renders a task's cameras for one env into
 * uint8 pixels. MuJoCo's ray-cast renderer (RayCastImageSource) is the source of every build; tests
 * may inject another in their thread (the state-painted stand-in).
 */
import type { MjData, MjModel, Mujoco } from '../mujoco-types';
import { RayCastImageSource } from './ray-cast-image-source';

/** Renders a task's cameras for one env into uint8 pixels (row-major, row 0 on top, channels last). */
export interface CameraImageSource {
  /** camera names, in the order their images are laid out */
  readonly cameras: readonly string[];
  /** square image side in pixels */
  readonly size: number;
  /** rgb, or rgb + depth byte (rgbd) */
  readonly channels: 3 | 4;
  /** Writes cameras.length × size × size × channels bytes at out[offset…]. */
  render(model: MjModel, data: MjData, out: Uint8Array, offset: number): void;
  delete(): void;
}

/** What a source is built for: the compiled scene and the images asked of it (camera names resolved against the scene). */
export interface CameraImageRequest {
  mj: Mujoco;
  model: MjModel;
  cameras: readonly string[];
  size: number;
  channels: 3 | 4;
}

export type CameraImageSourceFactory = (request: CameraImageRequest) => CameraImageSource;

let injected: CameraImageSourceFactory | undefined;

/** Makes `createCameraImageSource` build sources with `factory` in this thread (tests); undefined restores the ray-cast renderer. */
export function injectCameraImageSource(factory: CameraImageSourceFactory | undefined): void {
  injected = factory;
}

/** The source that renders `request`'s cameras: MuJoCo's ray casting, or the injected factory's source. */
export function createCameraImageSource(request: CameraImageRequest): CameraImageSource {
  return injected ? injected(request) : new RayCastImageSource(request);
}
