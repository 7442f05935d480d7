/**
 * Where camera images come from (DESIGN.md §19): a source renders a task's cameras for one env into
 * uint8 pixels. MuJoCo's ray-cast renderer implements it; a build without the renderer refuses image
 * observations, unless a source was injected (tests inject the state-painted stand-in).
 */
import { EnvError } from '../../errors';
import type { MjData, MjModel, Mujoco } from '../mujoco-types';

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

/** The one sentence a build without a renderer answers an image observation with. */
export const NO_CAMERA_RENDERER = 'camera rendering is not available in this build, so env.obs_type=rgb and rgbd cannot run yet; use env.obs_type=state or pointcloud';

let injected: CameraImageSourceFactory | undefined;

/** Makes `createCameraImageSource` build sources with `factory` in this thread; undefined takes it back out. */
export function injectCameraImageSource(factory: CameraImageSourceFactory | undefined): void {
  injected = factory;
}

/** The source that renders `request`'s cameras; an EnvError when this build has no renderer. */
export function createCameraImageSource(request: CameraImageRequest): CameraImageSource {
  if (injected) return injected(request);
  throw new EnvError(NO_CAMERA_RENDERER);
}
