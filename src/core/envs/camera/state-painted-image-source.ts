/**
 * A deterministic stand-in for the camera renderer: it paints each camera's image from a few qpos
 * values, so tests can check that images follow the simulation state without rendering anything.
 * Camera c shows a square whose centre moves with qpos[2c] (across) and qpos[2c + 1] (down), on a
 * fixed gradient (paintedCentre, paintedBackground); the depth byte (rgbd) grows with the distance from the square's centre.
 */
import type { MjData, MjModel } from '../mujoco-types';
import type { CameraImageRequest, CameraImageSource } from './image-source';

/** Background of pixel (row, column) in channel k: a fixed gradient. */
export function paintedBackground(row: number, column: number, channel: number): number {
  return (4 * column + 2 * row + 40 * channel) & 255;
}

/** The square's centre in pixels from one qpos value: the fractional part of 2q of the way across, so it moves 1/2 image per radian or half metre, wrapping around. */
export function paintedCentre(q: number, size: number): number {
  const turns = 2 * q;
  return Math.min(size - 1, Math.floor((turns - Math.floor(turns)) * size));
}

export class StatePaintedImageSource implements CameraImageSource {
  readonly cameras: readonly string[];
  readonly size: number;
  readonly channels: 3 | 4;

  constructor(request: Pick<CameraImageRequest, 'cameras' | 'size' | 'channels'>) {
    this.cameras = [...request.cameras];
    this.size = request.size;
    this.channels = request.channels;
  }

  render(model: MjModel, data: MjData, out: Uint8Array, offset: number): void {
    const qpos = data.qpos as Float64Array;
    const { size, channels } = this;
    const half = Math.max(1, Math.floor(size / 8));
    let cursor = offset;
    for (let camera = 0; camera < this.cameras.length; camera++) {
      const centreColumn = paintedCentre(qpos[(2 * camera) % model.nq], size);
      const centreRow = paintedCentre(qpos[(2 * camera + 1) % model.nq], size);
      for (let row = 0; row < size; row++) {
        for (let column = 0; column < size; column++) {
          const inside = Math.abs(row - centreRow) <= half && Math.abs(column - centreColumn) <= half;
          for (let channel = 0; channel < 3; channel++) {
            out[cursor++] = inside ? (channel === camera % 3 ? 255 : 32) : paintedBackground(row, column, channel);
          }
          if (channels === 4) out[cursor++] = Math.min(255, 4 * (Math.abs(row - centreRow) + Math.abs(column - centreColumn)));
        }
      }
    }
  }

  delete(): void {}
}
