/**
 * What a renderer needs to draw a task (DESIGN.md §1 journey 4, §7): the
 * visible geoms of the task's MJCF with their shapes and colours, and, for a
 * recorded episode, every visible geom's world pose at every frame, computed
 * from the episode's qpos trajectory by forward kinematics.
 */
import { ShapeError, TaskError } from '../errors';
import type { EpisodeRecord } from '../envs/task-env';
import type { TaskDefinition } from '../envs/task-definition';
import type { TaskName } from '../envs/task-types';
import type { SceneModel } from '../envs/scene-model';

export type GeomShape = 'plane' | 'sphere' | 'capsule' | 'cylinder' | 'box' | 'mesh';

/** One visible geom, in its own frame (the pose comes from EpisodePoses). */
export interface GeomVisual {
  name: string;
  shape: GeomShape;
  /**
   * MuJoCo's geom_size: plane [half x, half y, grid spacing]; sphere [radius, -, -];
   * capsule and cylinder [radius, half length along local z, -]; box [half x, half y, half z].
   */
  size: [number, number, number];
  /** RGBA in [0, 1], as written in the MJCF (display values, like MuJoCo's own renderer). */
  rgba: [number, number, number, number];
  /** Mesh geoms: vertices [V, 3] in the geom's frame and triangles [T, 3] of vertex indices. */
  mesh?: { vertices: number[]; faces: number[] };
}

export interface SceneVisual {
  task: TaskName;
  /** Visible geoms, in the order EpisodePoses lays them out. */
  geoms: GeomVisual[];
  /** Frames per second of a recorded episode: the control rate. */
  fps: number;
  /** A camera (world frame, z up) that frames the task's scene at its start. */
  camera: { position: [number, number, number]; target: [number, number, number] };
  /** Slot in `geoms` of a geom on the task's render.trackBody: views move the camera with it in x and y. */
  trackGeom?: number;
}

export interface EpisodePoses {
  frames: number;
  geomCount: number;
  /** [frames × geomCount × 12]: world position (3) then row-major rotation (9) */
  poses: Float32Array;
  /** [frames × 3] the task's end-effector site position (zeros when it names none) */
  tcp: Float32Array;
}

/** Floats per geom per frame in EpisodePoses.poses. */
export const POSE_STRIDE = 12;

/** Geoms in this group or above are not drawn (MuJoCo's viewer hides groups 3-5 by default). */
export const HIDDEN_GROUP_START = 3;


/** [G] ids of the geoms a renderer draws: known shapes, group below HIDDEN_GROUP_START, alpha above 0. */
export function visibleGeomIds(scene: SceneModel): number[] {
  const { model } = scene;
  const geomType = model.geom_type as Int32Array;
  const geomGroup = model.geom_group as Int32Array;
  const geomRgba = model.geom_rgba as Float32Array;
  const ids: number[] = [];
  for (let geomId = 0; geomId < model.ngeom; geomId++) {
    if (geomGroup[geomId] >= HIDDEN_GROUP_START || geomRgba[geomId * 4 + 3] <= 0) continue;
    if (geomShape(scene, geomType[geomId]) !== undefined) ids.push(geomId);
  }
  return ids;
}

function geomShape(scene: SceneModel, type: number): GeomShape | undefined {
  const geom = scene.mj.mjtGeom;
  switch (type) {
    case geom.mjGEOM_PLANE.value: return 'plane';
    case geom.mjGEOM_SPHERE.value: return 'sphere';
    case geom.mjGEOM_CAPSULE.value: return 'capsule';
    case geom.mjGEOM_CYLINDER.value: return 'cylinder';
    case geom.mjGEOM_BOX.value: return 'box';
    case geom.mjGEOM_MESH.value: return 'mesh';
    default: return undefined;
  }
}

/** A mesh's vertices and triangles, for drawing. */
function meshOf(scene: SceneModel, meshId: number): { vertices: number[]; faces: number[] } {
  const { model } = scene;
  const vertAdr = (model.mesh_vertadr as Int32Array)[meshId];
  const vertNum = (model.mesh_vertnum as Int32Array)[meshId];
  const faceAdr = (model.mesh_faceadr as Int32Array)[meshId];
  const faceNum = (model.mesh_facenum as Int32Array)[meshId];
  return {
    vertices: Array.from((model.mesh_vert as Float32Array).subarray(vertAdr * 3, (vertAdr + vertNum) * 3)),
    faces: Array.from((model.mesh_face as Int32Array).subarray(faceAdr * 3, (faceAdr + faceNum) * 3)),
  };
}

/** A camera that frames the whole model (from its bounding sphere), for tasks that give none. */
function framingCamera(scene: SceneModel): SceneVisual['camera'] {
  // An Embind handle: read, then freed.
  const stat = scene.model.stat as { center?: ArrayLike<number>; extent?: number; delete?: () => void };
  try {
    const center = stat.center ? [stat.center[0], stat.center[1], stat.center[2]] : [0, 0, 0];
    const extent = stat.extent && stat.extent > 0 ? stat.extent : 1;
    return { position: [center[0] + 1.6 * extent, center[1] - 1.6 * extent, center[2] + 0.9 * extent], target: [center[0], center[1], center[2]] };
  } finally {
    stat.delete?.();
  }
}

/** The slot of the first visible geom on the task's trackBody; a name the scene lacks is a TaskError. */
function trackedGeomSlot(scene: SceneModel, task: TaskDefinition, visible: readonly number[]): number | undefined {
  const name = task.render.trackBody;
  if (name === undefined) return undefined;
  const body = scene.id('body', name);
  const geomBody = scene.model.geom_bodyid as Int32Array;
  const slot = body < 0 ? -1 : visible.findIndex((geomId) => geomBody[geomId] === body);
  if (slot < 0) throw new TaskError(`${task.origin}: render.trackBody '${name}' is not a body of the scene with a visible geom`);
  return slot;
}

/** The task's visible geoms, their colours and a camera; fps is the control rate. */
export function sceneVisual(scene: SceneModel, task: TaskDefinition): SceneVisual {
  const { mj, model } = scene;
  const geomType = model.geom_type as Int32Array;
  const geomSize = model.geom_size as Float64Array;
  const geomRgba = model.geom_rgba as Float32Array;
  const geomDataId = model.geom_dataid as Int32Array;
  const geoms = visibleGeomIds(scene).map((geomId): GeomVisual => {
    const shape = geomShape(scene, geomType[geomId])!;
    return {
      name: mj.mj_id2name(model, mj.mjtObj.mjOBJ_GEOM.value, geomId) ?? `geom${geomId}`,
      shape,
      size: [geomSize[geomId * 3], geomSize[geomId * 3 + 1], geomSize[geomId * 3 + 2]],
      rgba: [geomRgba[geomId * 4], geomRgba[geomId * 4 + 1], geomRgba[geomId * 4 + 2], geomRgba[geomId * 4 + 3]],
      ...(shape === 'mesh' ? { mesh: meshOf(scene, geomDataId[geomId]) } : {}),
    };
  });
  const timestep = (model.opt as { timestep: number }).timestep;
  const camera = task.render.camera ?? framingCamera(scene);
  const trackGeom = trackedGeomSlot(scene, task, visibleGeomIds(scene));
  return {
    task: task.name,
    geoms,
    fps: Math.round(1 / (timestep * task.frameSkip)),
    camera: { position: [...camera.position], target: [...camera.target] },
    ...(trackGeom !== undefined ? { trackGeom } : {}),
  };
}

/**
 * Poses of the visible geoms at each recorded frame: qpos [frames, nq] from the record, the mocap
 * bodies' positions from record.mocapPos, then mj_kinematics; and the end-effector site's path.
 * The record must come from `scene`'s task.
 */
export function episodePoses(scene: SceneModel, task: TaskDefinition, record: EpisodeRecord): EpisodePoses {
  const { mj, model, nq } = scene;
  if (record.nq !== nq) {
    throw new ShapeError('record.nq', `the episode has nq ${record.nq} but the scene has nq ${nq}: replay it in the scene of the task that recorded it`);
  }
  const frames = record.qpos.length / nq;
  if (!Number.isInteger(frames) || frames < 1) {
    throw new ShapeError('record.qpos', `record.qpos has ${record.qpos.length} values, not a positive multiple of nq ${nq}: the env did not record qpos (recordEpisodes is off)`);
  }
  const nmocap = scene.model.nmocap;
  if (record.mocapPos.length !== nmocap * 3 && record.mocapPos.length !== 0) {
    throw new ShapeError('record.mocapPos', `record.mocapPos has ${record.mocapPos.length} values, but the scene has ${nmocap} mocap bodies (${nmocap * 3} values)`);
  }
  const site = task.render.endEffectorSite ? scene.id('site', task.render.endEffectorSite) : -1;
  const geomIds = visibleGeomIds(scene);
  const geomCount = geomIds.length;
  const poses = new Float32Array(frames * geomCount * POSE_STRIDE);
  const tcp = new Float32Array(frames * 3);
  const data = scene.createData();
  try {
    mj.mj_resetData(model, data);
    for (let frame = 0; frame < frames; frame++) {
      // Views are re-read each frame: a heap growth detaches old ones.
      const qpos = data.qpos as Float64Array;
      for (let q = 0; q < nq; q++) qpos[q] = record.qpos[frame * nq + q];
      if (record.mocapPos.length > 0) (data.mocap_pos as Float64Array).set(record.mocapPos);
      mj.mj_kinematics(model, data);
      const xpos = data.geom_xpos as Float64Array;
      const xmat = data.geom_xmat as Float64Array;
      for (let slot = 0; slot < geomCount; slot++) {
        const geomId = geomIds[slot];
        const base = (frame * geomCount + slot) * POSE_STRIDE;
        for (let axis = 0; axis < 3; axis++) poses[base + axis] = xpos[geomId * 3 + axis];
        for (let entry = 0; entry < 9; entry++) poses[base + 3 + entry] = xmat[geomId * 9 + entry];
      }
      const siteXpos = data.site_xpos as Float64Array;
      if (site >= 0) for (let axis = 0; axis < 3; axis++) tcp[frame * 3 + axis] = siteXpos[site * 3 + axis];
    }
  } finally {
    data.delete();
  }
  return { frames, geomCount, poses, tcp };
}
