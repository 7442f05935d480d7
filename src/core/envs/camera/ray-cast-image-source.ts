/**
 * Camera images rendered by MuJoCo's ray casting (DESIGN.md §19): the CameraImageSource of every
 * build. One RayCastCamera per camera, allocated once with its frame and freed by delete().
 *
 * Bytes per pixel, row-major from the top-left, channels last:
 *   rgb:  the frame's shaded colour (surface-shading.ts);
 *   rgbd: the same colour, then a depth byte: 0 where the ray hits nothing (within the camera's far
 *         limit), else the z-depth z mapped linearly from [IMAGE_DEPTH_NEAR, IMAGE_DEPTH_FAR] metres
 *         onto 1..255 (1 + round(254 · (z − near) / (far − near)), clamped), so 1 is near, 255 far.
 */
import type { MjData, MjModel } from '../mujoco-types';
import { NO_HIT_DEPTH, type CameraFrame } from './camera-frame';
import type { CameraImageRequest, CameraImageSource } from './image-source';
import { RayCastCamera } from './ray-cast-camera';

/** Depth (m) that the rgbd depth byte 1 stands for; nearer hits clamp to it (the wrist camera's jaws are a few cm away). */
export const IMAGE_DEPTH_NEAR = 0.02;
/** Depth (m) that the rgbd depth byte 255 stands for; farther hits clamp to it (a table-top scene fits inside, about 1 cm a step). */
export const IMAGE_DEPTH_FAR = 2.5;

/** The rgbd depth byte of a z-depth in metres (NO_HIT_DEPTH: 0). */
export function depthByte(depth: number): number {
  if (depth === NO_HIT_DEPTH) return 0;
  const fraction = (depth - IMAGE_DEPTH_NEAR) / (IMAGE_DEPTH_FAR - IMAGE_DEPTH_NEAR);
  return 1 + Math.round(254 * (fraction < 0 ? 0 : fraction > 1 ? 1 : fraction));
}

export class RayCastImageSource implements CameraImageSource {
  readonly cameras: readonly string[];
  readonly size: number;
  readonly channels: 3 | 4;
  private readonly renderers: readonly RayCastCamera[];
  private readonly frames: readonly CameraFrame[];

  /** `request.cameras` are names the scene has (resolved beforehand). */
  constructor(request: CameraImageRequest) {
    this.cameras = [...request.cameras];
    this.size = request.size;
    this.channels = request.channels;
    const renderers: RayCastCamera[] = [];
    try {
      for (const name of request.cameras) renderers.push(new RayCastCamera(request.mj, request.model, name, { imageSize: request.size }));
    } catch (error) {
      for (const renderer of renderers) renderer.delete();
      throw error;
    }
    this.renderers = renderers;
    this.frames = renderers.map((renderer) => renderer.createFrame());
  }

  render(_model: MjModel, data: MjData, out: Uint8Array, offset: number): void {
    const pixels = this.size * this.size;
    let cursor = offset;
    this.renderers.forEach((renderer, cameraIndex) => {
      const { rgb, depth } = renderer.render(data, this.frames[cameraIndex]);
      if (this.channels === 3) {
        out.set(rgb, cursor);
        cursor += rgb.length;
        return;
      }
      for (let pixel = 0; pixel < pixels; pixel++) {
        out[cursor++] = rgb[pixel * 3];
        out[cursor++] = rgb[pixel * 3 + 1];
        out[cursor++] = rgb[pixel * 3 + 2];
        out[cursor++] = depthByte(depth[pixel]);
      }
    });
  }

  /** Frees every camera's wasm buffers; calling it again does nothing. */
  delete(): void {
    for (const renderer of this.renderers) renderer.delete();
  }
}
