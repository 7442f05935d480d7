/**
 * Point-cloud observation (DESIGN.md §5): N points on the surfaces of the
 * visible geoms (arm, gripper, cube), in the world frame. Points are drawn once
 * per scene in each geom's local frame (fixed seed, area-weighted, with a
 * guaranteed share for the cube so the object stays visible), and moved with
 * the geom's pose at every observation. The table and floor are left out, as a
 * workspace crop would.
 */
import type { DataArrays } from './data-arrays';
import type { SceneModel } from './scene-model';
import { createRng, type Rng } from '../random';
import { ConfigError } from '../errors';

export const DEFAULT_NUM_POINTS = 256;
/** Geoms of the task objects (DESIGN.md §5), which share the guaranteed object points. */
export const OBJECT_GEOMS = new Set(['cube_geom', 'base_cube_geom', 'peg_geom']);
/** Share of the points given to the task objects when the scene has any. */
export const OBJECT_POINT_SHARE = 0.25;
const EXCLUDED_GEOMS = new Set(['floor', 'table', 'goal_marker']);

export const GEOM_SPHERE = 2;
export const GEOM_CAPSULE = 3;
export const GEOM_CYLINDER = 5;
export const GEOM_BOX = 6;

export interface SurfaceSampler {
  numPoints: number;
  /** [N] geom id of each point. */
  pointGeomIds: Int32Array;
  /** [N, 3] point in its geom's local frame. */
  localPoints: Float64Array;
}

/** Surface area of a primitive geom; size is MuJoCo's geom_size triple. */
export function geomSurfaceArea(type: number, size: ArrayLike<number>): number {
  const [a, b, c] = [size[0], size[1], size[2]];
  switch (type) {
    case GEOM_SPHERE: return 4 * Math.PI * a * a;
    case GEOM_CAPSULE: return 2 * Math.PI * a * 2 * b + 4 * Math.PI * a * a;
    case GEOM_CYLINDER: return 2 * Math.PI * a * 2 * b + 2 * Math.PI * a * a;
    case GEOM_BOX: return 8 * (a * b + b * c + a * c);
    default: return 0;
  }
}

function randomUnit(rng: Rng, out: number[]): number[] {
  const x = rng.normal(), y = rng.normal(), z = rng.normal();
  const norm = Math.hypot(x, y, z) || 1;
  out[0] = x / norm; out[1] = y / norm; out[2] = z / norm;
  return out;
}

/** One uniform point on a primitive's surface, local frame (z is the capsule/cylinder axis). */
export function sampleSurfacePoint(type: number, size: ArrayLike<number>, rng: Rng, out: number[]): number[] {
  const [a, b, c] = [size[0], size[1], size[2]];
  if (type === GEOM_SPHERE) {
    randomUnit(rng, out);
    out[0] *= a; out[1] *= a; out[2] *= a;
    return out;
  }
  if (type === GEOM_CAPSULE || type === GEOM_CYLINDER) {
    const side = 2 * Math.PI * a * 2 * b;
    const ends = type === GEOM_CAPSULE ? 4 * Math.PI * a * a : 2 * Math.PI * a * a;
    if (rng.uniform() * (side + ends) < side) {
      const angle = 2 * Math.PI * rng.uniform();
      out[0] = a * Math.cos(angle); out[1] = a * Math.sin(angle); out[2] = b * (2 * rng.uniform() - 1);
      return out;
    }
    if (type === GEOM_CAPSULE) {
      randomUnit(rng, out);
      out[0] *= a; out[1] *= a;
      out[2] = a * out[2] + Math.sign(out[2] || 1) * b;
      return out;
    }
    const radius = a * Math.sqrt(rng.uniform());
    const angle = 2 * Math.PI * rng.uniform();
    out[0] = radius * Math.cos(angle); out[1] = radius * Math.sin(angle); out[2] = rng.uniform() < 0.5 ? -b : b;
    return out;
  }
  // Box: pick a face pair by area, then a point on it.
  const areas = [b * c, a * c, a * b];
  let pick = rng.uniform() * (areas[0] + areas[1] + areas[2]);
  let axis = 0;
  while (axis < 2 && pick >= areas[axis]) { pick -= areas[axis]; axis++; }
  const half = [a, b, c];
  for (let d = 0; d < 3; d++) out[d] = half[d] * (2 * rng.uniform() - 1);
  out[axis] = rng.uniform() < 0.5 ? -half[axis] : half[axis];
  return out;
}

/** Draws the per-scene local samples; the same scene always gives the same points. */
export function createSurfaceSampler(scene: SceneModel, numPoints = DEFAULT_NUM_POINTS, seed = 0): SurfaceSampler {
  if (!Number.isInteger(numPoints) || numPoints < 1) {
    throw new ConfigError('num_points', `num_points must be a positive integer, got ${numPoints}`);
  }
  const { mj, model } = scene;
  const geomType = model.geom_type as Int32Array;
  const geomSize = model.geom_size as Float64Array;
  const geomRgba = model.geom_rgba as Float32Array;
  const candidates: { geomId: number; area: number; isObject: boolean }[] = [];
  for (let geomId = 0; geomId < model.ngeom; geomId++) {
    const name = mj.mj_id2name(model, mj.mjtObj.mjOBJ_GEOM.value, geomId) ?? '';
    if (EXCLUDED_GEOMS.has(name) || geomRgba[geomId * 4 + 3] <= 0) continue;
    const area = geomSurfaceArea(geomType[geomId], geomSize.subarray(geomId * 3, geomId * 3 + 3));
    if (area > 0) candidates.push({ geomId, area, isObject: OBJECT_GEOMS.has(name) });
  }
  const objectArea = candidates.filter((g) => g.isObject).reduce((sum, g) => sum + g.area, 0);
  const robotArea = candidates.filter((g) => !g.isObject).reduce((sum, g) => sum + g.area, 0);
  const objectPoints = objectArea > 0 ? Math.round(numPoints * OBJECT_POINT_SHARE) : 0;
  const rng = createRng(seed);
  const pointGeomIds = new Int32Array(numPoints);
  const localPoints = new Float64Array(numPoints * 3);
  const point = [0, 0, 0];
  for (let pointIndex = 0; pointIndex < numPoints; pointIndex++) {
    const fromObject = pointIndex < objectPoints;
    const pool = candidates.filter((g) => g.isObject === fromObject);
    let pick = rng.uniform() * (fromObject ? objectArea : robotArea);
    let chosen = pool[pool.length - 1];
    for (const geom of pool) {
      if (pick < geom.area) { chosen = geom; break; }
      pick -= geom.area;
    }
    sampleSurfacePoint(geomType[chosen.geomId], geomSize.subarray(chosen.geomId * 3, chosen.geomId * 3 + 3), rng, point);
    pointGeomIds[pointIndex] = chosen.geomId;
    localPoints.set(point, pointIndex * 3);
  }
  return { numPoints, pointGeomIds, localPoints };
}

/** Writes the [N, 3] world-frame points at out[offset]: p = geom_xpos + geom_xmat · local. */
export function writePointCloud(sampler: SurfaceSampler, arrays: DataArrays, out: Float32Array, offset: number): void {
  const xpos = arrays.geomXpos;
  const xmat = arrays.geomXmat;
  const { pointGeomIds, localPoints, numPoints } = sampler;
  for (let pointIndex = 0; pointIndex < numPoints; pointIndex++) {
    const geomId = pointGeomIds[pointIndex];
    const lx = localPoints[pointIndex * 3], ly = localPoints[pointIndex * 3 + 1], lz = localPoints[pointIndex * 3 + 2];
    for (let row = 0; row < 3; row++) {
      const m = geomId * 9 + row * 3;
      out[offset + pointIndex * 3 + row] = xpos[geomId * 3 + row] + xmat[m] * lx + xmat[m + 1] * ly + xmat[m + 2] * lz;
    }
  }
}
