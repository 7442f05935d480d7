/**
 * Point-cloud observation (DESIGN.md §5, §13): N points on the surfaces of the scene's visible
 * geoms (primitives and meshes), in the world frame. Points are drawn once per scene in each
 * geom's local frame (fixed seed, area-weighted, with a guaranteed share for the task's objects
 * so they stay visible), and moved with the geom's pose at every observation. Geoms the task
 * excludes (a table, a floor, a goal marker) are left out, as a workspace crop would.
 */
import type { DataArrays } from './data-arrays';
import type { SceneModel } from './scene-model';
import type { TaskPointCloud } from './task-api';
import { createRng, type Rng } from '../random';
import { ConfigError } from '../errors';

export const DEFAULT_NUM_POINTS = 256;
/** Share of the points given to the task's objects when the scene has any and the task names no share. */
export const OBJECT_POINT_SHARE = 0.25;

export const GEOM_SPHERE = 2;
export const GEOM_CAPSULE = 3;
export const GEOM_CYLINDER = 5;
export const GEOM_BOX = 6;
export const GEOM_MESH = 7;

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

/** A mesh's triangles in its geom's frame, with cumulative areas for area-weighted picks. */
interface MeshSurface {
  /** [T, 9] the three corners of each triangle. */
  triangles: Float64Array;
  /** [T] running sum of triangle areas. */
  cumulative: Float64Array;
  area: number;
}

function meshSurface(scene: SceneModel, meshId: number): MeshSurface {
  const { model } = scene;
  const vertAdr = (model.mesh_vertadr as Int32Array)[meshId];
  const faceAdr = (model.mesh_faceadr as Int32Array)[meshId];
  const faceNum = (model.mesh_facenum as Int32Array)[meshId];
  const vert = model.mesh_vert as Float32Array;
  const face = model.mesh_face as Int32Array;
  const triangles = new Float64Array(faceNum * 9);
  const cumulative = new Float64Array(faceNum);
  let area = 0;
  for (let triangle = 0; triangle < faceNum; triangle++) {
    for (let corner = 0; corner < 3; corner++) {
      const vertex = vertAdr + face[(faceAdr + triangle) * 3 + corner];
      for (let axis = 0; axis < 3; axis++) triangles[triangle * 9 + corner * 3 + axis] = vert[vertex * 3 + axis];
    }
    const t = triangles.subarray(triangle * 9, triangle * 9 + 9);
    const ux = t[3] - t[0], uy = t[4] - t[1], uz = t[5] - t[2];
    const vx = t[6] - t[0], vy = t[7] - t[1], vz = t[8] - t[2];
    area += 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    cumulative[triangle] = area;
  }
  return { triangles, cumulative, area };
}

/** One uniform point on a mesh's surface (its geom's frame). */
function sampleMeshPoint(mesh: MeshSurface, rng: Rng, out: number[]): number[] {
  const pick = rng.uniform() * mesh.area;
  let low = 0;
  let high = mesh.cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (mesh.cumulative[middle] <= pick) low = middle + 1;
    else high = middle;
  }
  let u = rng.uniform();
  let v = rng.uniform();
  if (u + v > 1) {
    u = 1 - u;
    v = 1 - v;
  }
  const t = mesh.triangles.subarray(low * 9, low * 9 + 9);
  for (let axis = 0; axis < 3; axis++) out[axis] = t[axis] + u * (t[3 + axis] - t[axis]) + v * (t[6 + axis] - t[axis]);
  return out;
}

/** Draws the per-scene local samples; the same scene always gives the same points. */
export function createSurfaceSampler(scene: SceneModel, numPoints = DEFAULT_NUM_POINTS, hints: TaskPointCloud = {}, seed = 0): SurfaceSampler {
  if (!Number.isInteger(numPoints) || numPoints < 1) {
    throw new ConfigError('num_points', `num_points must be a positive integer, got ${numPoints}`);
  }
  const { mj, model } = scene;
  const geomType = model.geom_type as Int32Array;
  const geomSize = model.geom_size as Float64Array;
  const geomRgba = model.geom_rgba as Float32Array;
  const geomDataId = model.geom_dataid as Int32Array;
  const excluded = new Set(hints.exclude ?? []);
  const objects = new Set(hints.objects ?? []);
  const meshes = new Map<number, MeshSurface>();
  const candidates: { geomId: number; area: number; isObject: boolean }[] = [];
  for (let geomId = 0; geomId < model.ngeom; geomId++) {
    const name = mj.mj_id2name(model, mj.mjtObj.mjOBJ_GEOM.value, geomId) ?? '';
    if (excluded.has(name) || geomRgba[geomId * 4 + 3] <= 0) continue;
    let area = geomSurfaceArea(geomType[geomId], geomSize.subarray(geomId * 3, geomId * 3 + 3));
    if (geomType[geomId] === GEOM_MESH && geomDataId[geomId] >= 0) {
      const mesh = meshSurface(scene, geomDataId[geomId]);
      meshes.set(geomId, mesh);
      area = mesh.area;
    }
    if (area > 0) candidates.push({ geomId, area, isObject: objects.has(name) });
  }
  if (candidates.length === 0) throw new ConfigError('env.obs_type', 'the scene has no visible geom with a surface to sample points on, so it has no point-cloud observation');
  const objectArea = candidates.filter((g) => g.isObject).reduce((sum, g) => sum + g.area, 0);
  const robotArea = candidates.filter((g) => !g.isObject).reduce((sum, g) => sum + g.area, 0);
  const objectPoints = objectArea > 0 ? Math.round(numPoints * (robotArea > 0 ? hints.objectShare ?? OBJECT_POINT_SHARE : 1)) : 0;
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
    const mesh = meshes.get(chosen.geomId);
    if (mesh) sampleMeshPoint(mesh, rng, point);
    else sampleSurfacePoint(geomType[chosen.geomId], geomSize.subarray(chosen.geomId * 3, chosen.geomId * 3 + 3), rng, point);
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
