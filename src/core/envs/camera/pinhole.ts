/**
 * The pinhole model every camera image and depth cloud shares (DESIGN.md §19): a square image of
 * size × size pixels with square pixels, MuJoCo's camera frame (looking along its local −z, +x
 * right, +y up), row 0 at the top, and each pixel sampled through its centre.
 */
import { ConfigError } from '../../errors';

/** Image side in pixels when env.image_size is not given. */
export const DEFAULT_IMAGE_SIZE = 64;
/** Bounds of env.image_size: 4096² rays per frame is already far beyond what a rollout can afford. */
export const MIN_IMAGE_SIZE = 4;
export const MAX_IMAGE_SIZE = 512;

/** tan(fovy / 2): the half-height of the image plane at unit distance in front of the camera. */
export function halfHeightAtUnitDepth(fovyDegrees: number): number {
  if (!(fovyDegrees > 0 && fovyDegrees < 180)) throw new ConfigError('env.camera', `a camera's vertical field of view must lie in (0, 180) degrees, got ${fovyDegrees}`);
  return Math.tan((fovyDegrees * Math.PI) / 360);
}

export function checkImageSize(imageSize: number): number {
  if (!Number.isInteger(imageSize) || imageSize < MIN_IMAGE_SIZE || imageSize > MAX_IMAGE_SIZE) {
    throw new ConfigError('env.image_size', `env.image_size must be an integer in [${MIN_IMAGE_SIZE}, ${MAX_IMAGE_SIZE}], got ${imageSize}`);
  }
  return imageSize;
}

/**
 * [size · size, 3] the ray through each pixel's centre in the camera frame, row-major from the top
 * left, scaled so that its z is −1: a hit at ray parameter t is then t metres deep along the optical axis.
 */
export function cameraFrameRays(imageSize: number, fovyDegrees: number): Float64Array {
  checkImageSize(imageSize);
  const halfHeight = halfHeightAtUnitDepth(fovyDegrees);
  const rays = new Float64Array(imageSize * imageSize * 3);
  for (let row = 0; row < imageSize; row++) {
    const y = (1 - (2 * (row + 0.5)) / imageSize) * halfHeight;
    for (let column = 0; column < imageSize; column++) {
      const pixel = row * imageSize + column;
      rays[pixel * 3] = ((2 * (column + 0.5)) / imageSize - 1) * halfHeight;
      rays[pixel * 3 + 1] = y;
      rays[pixel * 3 + 2] = -1;
    }
  }
  return rays;
}

/** out = rotation · v for a row-major 3 × 3 rotation (MuJoCo's xmat: its columns are the frame's axes in world). */
export function rotateInto(rotation: ArrayLike<number>, x: number, y: number, z: number, out: Float64Array | Float32Array, offset: number): void {
  out[offset] = rotation[0] * x + rotation[1] * y + rotation[2] * z;
  out[offset + 1] = rotation[3] * x + rotation[4] * y + rotation[5] * z;
  out[offset + 2] = rotation[6] * x + rotation[7] * y + rotation[8] * z;
}
