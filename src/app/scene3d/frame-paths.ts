/**
 * A camera that frames a set of 3D points (the TCP paths): it looks at the centre of their
 * bounding box from a given direction, far enough back that the box's bounding sphere fits the
 * narrower of the two fields of view, with a margin.
 */

export type Vec3 = [number, number, number];

export interface PathFraming {
  target: Vec3;
  position: Vec3;
}

/** Smallest radius framed (m), so a short path is not filled edge to edge. */
const MIN_RADIUS = 0.06;
const MARGIN = 1.25;

/**
 * `points`: flat [N × 3] arrays; `from`: a direction from the target toward the camera (any
 * length, e.g. task camera position − task camera target); `fovYDeg` and `aspect` as the camera's.
 */
export function framePoints(points: readonly Float32Array[], from: Vec3, fovYDeg: number, aspect: number): PathFraming {
  const low: Vec3 = [Infinity, Infinity, Infinity];
  const high: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const flat of points) {
    for (let index = 0; index + 2 < flat.length; index += 3) {
      // A point with a non-finite coordinate (a diverged chain) is skipped whole.
      if (!(Number.isFinite(flat[index]) && Number.isFinite(flat[index + 1]) && Number.isFinite(flat[index + 2]))) continue;
      for (let axis = 0; axis < 3; axis++) {
        low[axis] = Math.min(low[axis], flat[index + axis]);
        high[axis] = Math.max(high[axis], flat[index + axis]);
      }
    }
  }
  if (!(low[0] <= high[0] && low[1] <= high[1] && low[2] <= high[2])) throw new RangeError('framePoints needs at least one finite point');
  const target = [0, 1, 2].map((axis) => (low[axis] + high[axis]) / 2) as Vec3;
  const radius = Math.max(MIN_RADIUS, Math.hypot(high[0] - low[0], high[1] - low[1], high[2] - low[2]) / 2);
  const halfY = (fovYDeg * Math.PI) / 360;
  const halfX = Math.atan(Math.tan(halfY) * aspect);
  const distance = (MARGIN * radius) / Math.sin(Math.min(halfX, halfY));
  const length = Math.hypot(...from) || 1;
  const position = [0, 1, 2].map((axis) => target[axis] + (from[axis] / length) * distance) as Vec3;
  return { target, position };
}
