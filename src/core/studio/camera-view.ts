/**
 * What a task's camera sees for the Inspect tab (DESIGN.md §19): the rgb and depth images of a
 * stored episode's frame, or of a task's seeded reset, rendered by ray casting in the host's
 * MuJoCo. A task whose scene names no camera gets the list (empty) and no image.
 */
import { ConfigError, TrainingError } from '../errors';
import { modelCameraNames } from '../envs/camera/camera-lookup';
import { DEFAULT_IMAGE_SIZE } from '../envs/camera/pinhole';
import type { EpisodeRecord } from '../envs/task-env';
import type { TaskName } from '../envs/task-types';
import { VectorEnv } from '../envs/vector-env';
import { renderRecordedCamera } from '../render/recorded-camera';
import type { ReplayScenes } from '../render/replay-scenes';
import type { CameraSource, CameraView, CameraViewRequest } from '../../protocol/trainer-api';
import type { EpisodeStore } from './episode-store';

/** The named cameras of a task's scene, in declaration order. */
export function taskCameraNames(scenes: Pick<ReplayScenes, 'mj' | 'scene'>, task: TaskName): string[] {
  const scene = scenes.scene(task);
  return modelCameraNames(scenes.mj, scene.model);
}

/** The state a source names: the task, its record and the frame to show. */
function sourceState(store: Pick<EpisodeStore, 'get'>, scenes: Pick<ReplayScenes, 'mj'>, source: CameraSource): { task: TaskName; record: EpisodeRecord; frame: number } {
  if (source.kind === 'episode') {
    const stored = store.get(source.id);
    if (!stored) throw new TrainingError(`episode '${source.id}' is not in the store: it was evicted or the run was reset; pick another episode`);
    const frames = stored.record.qpos.length / stored.record.nq;
    if (!Number.isInteger(source.step) || source.step < 0 || source.step >= frames) {
      throw new TrainingError(`step ${source.step} is not a frame of episode '${source.id}', which has frames 0 to ${frames - 1}`);
    }
    return { task: stored.summary.task, record: stored.record, frame: source.step };
  }
  // One env on state observations: its reset pose is all a camera needs, and state renders nothing on reset.
  const env = new VectorEnv(scenes.mj, { task: source.task, numEnvs: 1, obsMode: 'state', recordEpisodes: true });
  try {
    env.reset([source.seed]);
    return { task: source.task, record: env.env(0).episodeRecord(0), frame: 0 };
  } finally {
    env.dispose();
  }
}

/** Renders the request's camera (its scene's first when not named) from the state its source names. */
export function cameraView(store: Pick<EpisodeStore, 'get'>, scenes: Pick<ReplayScenes, 'mj' | 'scene'>, request: CameraViewRequest): CameraView {
  const { task, record, frame } = sourceState(store, scenes, request.source);
  const cameras = taskCameraNames(scenes, task);
  if (cameras.length === 0) return { task, cameras, source: request.source };
  const camera = request.camera ?? cameras[0];
  if (!cameras.includes(camera)) throw new ConfigError('env.camera', `camera '${camera}' is not a camera of task '${task}'; its cameras: ${cameras.join(', ')}`);
  const size = request.imageSize ?? DEFAULT_IMAGE_SIZE;
  const { rgb, depth } = renderRecordedCamera(scenes.scene(task), record, frame, camera, size);
  return { task, cameras, source: request.source, image: { camera, size, rgb, depth } };
}

/** Transfer list of a CameraView's arrays. */
export function cameraViewBuffers(view: CameraView): ArrayBuffer[] {
  return view.image ? [view.image.rgb.buffer as ArrayBuffer, view.image.depth.buffer as ArrayBuffer] : [];
}
