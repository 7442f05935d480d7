/** One rendered camera image (DESIGN.md §19); every array is row-major from the top-left pixel. */

/**
 * Depth of a pixel whose ray hits nothing within the camera's far limit. 0, as real depth cameras
 * report no return, so a depth image never holds a non-finite value.
 */
export const NO_HIT_DEPTH = 0;
/** Geom id of a pixel whose ray hits nothing. */
export const NO_HIT_GEOM = -1;

export interface CameraFrame {
  /** Image side in pixels (square images). */
  readonly size: number;
  /** [size · size] z-depth along the optical axis in metres (not the ray's length); NO_HIT_DEPTH on a miss. */
  readonly depth: Float32Array;
  /** [size · size] id of the geom each ray hits first; NO_HIT_GEOM on a miss. */
  readonly geomIds: Int32Array;
  /** [size · size · 3] shaded colour of each pixel. */
  readonly rgb: Uint8Array;
}

/** A camera's pose at render time: position [3] and rotation [3 × 3] row-major (its columns are the camera's axes), world frame. */
export interface CameraPose {
  readonly position: Float64Array;
  readonly rotation: Float64Array;
}

export function createCameraFrame(size: number): CameraFrame {
  const pixels = size * size;
  return { size, depth: new Float32Array(pixels), geomIds: new Int32Array(pixels), rgb: new Uint8Array(pixels * 3) };
}
