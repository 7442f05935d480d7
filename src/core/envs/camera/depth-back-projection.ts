/**
 * Depth image → world points (DESIGN.md §19): each pixel with a hit becomes the point at its
 * z-depth along the ray through the pixel's centre, moved by the camera's pose, as a depth camera's
 * cloud is made. Pixels without a hit (NO_HIT_DEPTH) give no point.
 */
import { NO_HIT_DEPTH, type CameraPose } from './camera-frame';
import { cameraFrameRays } from './pinhole';

/**
 * Writes the world points of `depth` [size · size] at out[3·start..], in pixel order, skipping
 * misses and the pixels whose `skipPixel` says so; returns the new point count. `localRays` is
 * cameraFrameRays(size, fovy): camera-frame rays with z = −1, so depth · ray is the camera-frame point.
 */
export function backProjectDepthInto(
  depth: Float32Array, localRays: Float64Array, pose: CameraPose, out: Float64Array, start: number, skipPixel?: (pixel: number) => boolean,
): number {
  const { position, rotation: r } = pose;
  let count = start;
  for (let pixel = 0; pixel < depth.length; pixel++) {
    const z = depth[pixel];
    if (z === NO_HIT_DEPTH || (skipPixel && skipPixel(pixel))) continue;
    const x = z * localRays[pixel * 3], y = z * localRays[pixel * 3 + 1], w = -z;
    out[count * 3] = position[0] + r[0] * x + r[1] * y + r[2] * w;
    out[count * 3 + 1] = position[1] + r[3] * x + r[4] * y + r[5] * w;
    out[count * 3 + 2] = position[2] + r[6] * x + r[7] * y + r[8] * w;
    count++;
  }
  return count;
}

/** [M, 3] the world points of one depth image (size × size, vertical field of view fovy degrees) seen from `pose`. */
export function backProjectDepth(depth: Float32Array, imageSize: number, fovyDegrees: number, pose: CameraPose): Float64Array {
  const points = new Float64Array(depth.length * 3);
  const count = backProjectDepthInto(depth, cameraFrameRays(imageSize, fovyDegrees), pose, points, 0);
  return points.slice(0, count * 3);
}
