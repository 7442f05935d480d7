/**
 * A drawable scene state from one observation (DESIGN.md §5 observation slices):
 * the arm and finger joints, the cube's pose (state mode; pointcloud observations
 * carry no cube pose, so the cube stays at its home pose) and the goal.
 */
import { ShapeError } from '../errors';
import type { EpisodeRecord } from '../envs/task-env';
import type { ObsSpec } from '../envs/task-types';
import { ARM_DOF, type SceneModel } from '../envs/scene-model';

export interface ObservationState {
  /** [nq] */
  qpos: Float32Array;
  /** [3] goal point; zeros without one. */
  goal: number[];
  /** [3] the observation's TCP position. */
  tcp: number[];
  /** False when the observation has no cube pose (pointcloud mode). */
  objectFromObservation: boolean;
}

function slice(spec: ObsSpec, obs: Float32Array, name: string): Float32Array | undefined {
  const entry = spec.slices.find((candidate) => candidate.name === name);
  return entry ? obs.subarray(entry.start, entry.start + entry.dim) : undefined;
}

/** obs: [obsDim], one frame (the newest of a stacked observation). */
export function observationState(scene: SceneModel, spec: ObsSpec, obs: Float32Array): ObservationState {
  if (obs.length !== spec.dim) throw new ShapeError('obs', `obs has ${obs.length} values but the ${spec.mode} spec has ${spec.dim}`);
  const { model, nq } = scene;
  const keyQpos = model.key_qpos as Float64Array;
  const qpos = Float32Array.from(keyQpos.subarray(scene.homeKeyId * nq, (scene.homeKeyId + 1) * nq));
  const joints = slice(spec, obs, 'joint_qpos');
  const fingers = slice(spec, obs, 'gripper_qpos');
  const tcp = slice(spec, obs, 'tcp_pos');
  if (!joints || !fingers || !tcp) throw new ShapeError('obs', 'the observation spec has no joint_qpos, gripper_qpos or tcp_pos slice');
  qpos.set(joints.subarray(0, ARM_DOF), 0);
  qpos.set(fingers, scene.fingerQposAdr);
  const cubePos = slice(spec, obs, 'cube_pos');
  const cubeQuat = slice(spec, obs, 'cube_quat');
  const objectFromObservation = scene.objectQposAdr >= 0 && cubePos !== undefined && cubeQuat !== undefined;
  if (objectFromObservation) {
    qpos.set(cubePos!, scene.objectQposAdr);
    qpos.set(cubeQuat!, scene.objectQposAdr + 3);
  }
  const goal = slice(spec, obs, 'goal_pos');
  return { qpos, goal: goal ? Array.from(goal) : [0, 0, 0], tcp: Array.from(tcp), objectFromObservation };
}

/** A one-frame record of the state, for episodePoses. */
export function stateRecord(state: ObservationState, nq: number): EpisodeRecord {
  return { envIndex: 0, seed: 0, episodeReturn: 0, length: 0, success: false, nq, goal: state.goal, qpos: state.qpos };
}
