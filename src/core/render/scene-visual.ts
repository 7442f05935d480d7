/**
 * What a renderer needs to draw a task (DESIGN.md §1 journey 4, §7): the
 * visible geoms of the task's MJCF with their shapes and colours, and, for a
 * recorded episode, every visible geom's world pose at every frame, computed
 * from the episode's qpos trajectory by forward kinematics.
 */
import { ShapeError } from '../errors';
import type { EpisodeRecord } from '../envs/task-env';
import type { TaskName } from '../envs/task-types';
import type { SceneModel } from '../envs/scene-model';
import { PHYSICS_TIMESTEP, CONTROL_SUBSTEPS } from '../envs/robot-mjcf';

export type GeomShape = 'plane' | 'sphere' | 'capsule' | 'cylinder' | 'box';

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
}

export interface SceneVisual {
  task: TaskName;
  /** Visible geoms, in the order EpisodePoses lays them out. */
  geoms: GeomVisual[];
  /** Frames per second of a recorded episode: the control rate. */
  fps: number;
  /** A camera (world frame, z up) that frames the table and the arm. */
  camera: { position: [number, number, number]; target: [number, number, number] };
}

export interface EpisodePoses {
  frames: number;
  geomCount: number;
  /** [frames × geomCount × 12]: world position (3) then row-major rotation (9) */
  poses: Float32Array;
  /** [frames × 3] TCP site position */
  tcp: Float32Array;
}

/** Floats per geom per frame in EpisodePoses.poses. */
export const POSE_STRIDE = 12;

/** Geoms in this group or above are not drawn (MuJoCo's viewer hides groups 3-5 by default). */
export const HIDDEN_GROUP_START = 3;

/** Oblique view from the front right, above the table. */
const DEFAULT_CAMERA: SceneVisual['camera'] = { position: [1.45, 1.0, 0.9], target: [0.32, 0, 0.28] };

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
    default: return undefined;
  }
}

/** The task's visible geoms, their colours and a camera; fps is the 20 Hz control rate (DESIGN.md §5). */
export function sceneVisual(scene: SceneModel, task: TaskName): SceneVisual {
  const { mj, model } = scene;
  const geomType = model.geom_type as Int32Array;
  const geomSize = model.geom_size as Float64Array;
  const geomRgba = model.geom_rgba as Float32Array;
  const geoms = visibleGeomIds(scene).map((geomId): GeomVisual => ({
    name: mj.mj_id2name(model, mj.mjtObj.mjOBJ_GEOM.value, geomId) ?? `geom${geomId}`,
    shape: geomShape(scene, geomType[geomId])!,
    size: [geomSize[geomId * 3], geomSize[geomId * 3 + 1], geomSize[geomId * 3 + 2]],
    rgba: [geomRgba[geomId * 4], geomRgba[geomId * 4 + 1], geomRgba[geomId * 4 + 2], geomRgba[geomId * 4 + 3]],
  }));
  return {
    task,
    geoms,
    fps: Math.round(1 / (PHYSICS_TIMESTEP * CONTROL_SUBSTEPS)),
    camera: { position: [...DEFAULT_CAMERA.position], target: [...DEFAULT_CAMERA.target] },
  };
}

/**
 * Poses of the visible geoms at each recorded frame: qpos [frames, nq] from the record, the goal
 * marker's mocap position from record.goal, then mj_kinematics. The record must come from `scene`'s task.
 */
export function episodePoses(scene: SceneModel, record: EpisodeRecord): EpisodePoses {
  const { mj, model, nq } = scene;
  if (record.nq !== nq) {
    throw new ShapeError('record.nq', `the episode has nq ${record.nq} but the scene has nq ${nq}: replay it in the scene of the task that recorded it`);
  }
  const frames = record.qpos.length / nq;
  if (!Number.isInteger(frames) || frames < 1) {
    throw new ShapeError('record.qpos', `record.qpos has ${record.qpos.length} values, not a positive multiple of nq ${nq}: the env did not record qpos (recordEpisodes is off)`);
  }
  if (record.goal.length !== 3) {
    throw new ShapeError('record.goal', `record.goal must have 3 values (x, y, z), got ${record.goal.length}`);
  }
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
      if (scene.goalMocapId >= 0) (data.mocap_pos as Float64Array).set(record.goal, scene.goalMocapId * 3);
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
      for (let axis = 0; axis < 3; axis++) tcp[frame * 3 + axis] = siteXpos[scene.tcpSiteId * 3 + axis];
    }
  } finally {
    data.delete();
  }
  return { frames, geomCount, poses, tcp };
}
