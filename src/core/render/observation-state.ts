/**
 * A drawable scene state from one observation (DESIGN.md §13 render hints): the start pose, with
 * what the task's qposFromObservation reads from the frame's named slices written over it. Tasks
 * without the hint are drawn at their start pose.
 */
import { ShapeError } from '../errors';
import type { EpisodeRecord } from '../envs/task-env';
import type { TaskDefinition } from '../envs/task-definition';
import type { ObsSpec } from '../envs/task-types';
import type { SceneModel } from '../envs/scene-model';

export interface ObservationState {
  /** [nq] */
  qpos: Float32Array;
  /** [nmocap × 3] mocap bodies (goal markers) where the observation puts them. */
  mocapPos: number[];
  /** False when the observation does not show the task's objects (they are drawn at the start pose). */
  objectFromObservation: boolean;
}

/** obs: [obsDim], one frame (the newest of a stacked observation). */
export function observationState(scene: SceneModel, task: TaskDefinition, spec: ObsSpec, obs: Float32Array): ObservationState {
  if (obs.length !== spec.dim) throw new ShapeError('obs', `obs has ${obs.length} values but the ${spec.mode} spec has ${spec.dim}`);
  const qpos = scene.startQpos();
  const mocapPos = scene.startMocapPos();
  const slices: Record<string, Float32Array> = {};
  for (const slice of spec.slices) slices[slice.name] = obs.subarray(slice.start, slice.start + slice.dim);
  const reader = task.render.qposFromObservation;
  const objectFromObservation = reader
    ? reader(slices, qpos, { id: (kind, name) => scene.id(kind, name), qposAddress: (joint) => scene.qposAddress(joint) }, mocapPos)
    : false;
  return { qpos: Float32Array.from(qpos), mocapPos: [...mocapPos], objectFromObservation };
}

/** A one-frame record of the state, for episodePoses. */
export function stateRecord(state: ObservationState, nq: number): EpisodeRecord {
  return { envIndex: 0, seed: 0, episodeReturn: 0, length: 0, success: false, nq, mocapPos: state.mocapPos, qpos: state.qpos };
}
