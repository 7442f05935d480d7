/**
 * A named camera's image of one recorded frame (DESIGN.md §19): the frame's qpos and the episode's
 * mocap bodies are put into fresh MjData, its kinematics and camera poses computed, and the scene
 * ray-cast by RayCastCamera. The same wasm gives the same bits in Node and in a worker.
 */
import { ShapeError } from '../errors';
import type { CameraFrame } from '../envs/camera/camera-frame';
import { RayCastCamera } from '../envs/camera/ray-cast-camera';
import type { SceneModel } from '../envs/scene-model';
import type { EpisodeRecord } from '../envs/task-env';
import type { MjData } from '../envs/mujoco-types';

/** The record's frame count: its qpos rows. */
export function recordFrames(record: Pick<EpisodeRecord, 'nq' | 'qpos'>): number {
  return record.nq > 0 ? record.qpos.length / record.nq : 0;
}

/**
 * Calls `use` with fresh MjData posed at frame `frame` of `record` (0: after reset): the frame's qpos and
 * the episode's mocap bodies, kinematics and camera poses computed. The data is freed afterwards.
 */
export function withRecordedFrame<T>(scene: SceneModel, record: Pick<EpisodeRecord, 'nq' | 'qpos' | 'mocapPos'>, frame: number, use: (data: MjData) => T): T {
  const { mj, model, nq } = scene;
  if (record.nq !== nq) throw new ShapeError('record.nq', `the episode has nq ${record.nq} but the scene has nq ${nq}: render it in the scene of the task that recorded it`);
  const frames = recordFrames(record);
  if (!Number.isInteger(frame) || frame < 0 || frame >= frames) {
    throw new ShapeError('frame', `frame ${frame} is outside the episode's ${frames} recorded frames (0 to ${frames - 1})`);
  }
  if (record.mocapPos.length !== 0 && record.mocapPos.length !== model.nmocap * 3) {
    throw new ShapeError('record.mocapPos', `record.mocapPos has ${record.mocapPos.length} values, but the scene has ${model.nmocap} mocap bodies (${model.nmocap * 3} values)`);
  }
  const data = scene.createData();
  try {
    mj.mj_resetData(model, data);
    // Views are read after resetData: any earlier allocation may have moved the heap.
    (data.qpos as Float64Array).set(record.qpos.subarray(frame * nq, (frame + 1) * nq));
    if (record.mocapPos.length > 0) (data.mocap_pos as Float64Array).set(record.mocapPos);
    // mj_forward also places the cameras (mj_camlight), which the ray origins and directions read.
    mj.mj_forward(model, data);
    return use(data);
  } finally {
    data.delete();
  }
}

/** Renders camera `cameraName` at frame `frame` of `record` (0: after reset), `imageSize` pixels square. */
export function renderRecordedCamera(scene: SceneModel, record: Pick<EpisodeRecord, 'nq' | 'qpos' | 'mocapPos'>, frame: number, cameraName: string, imageSize: number): CameraFrame {
  const camera = new RayCastCamera(scene.mj, scene.model, cameraName, { imageSize });
  try {
    return withRecordedFrame(scene, record, frame, (data) => camera.render(data));
  } finally {
    camera.delete();
  }
}
