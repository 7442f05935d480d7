/**
 * A drawable scene state from one observation (DESIGN.md §5 observation slices):
 * the arm and finger joints, the task objects' poses (state mode; pointcloud observations
 * carry none, so the objects stay at their home poses) and the goal.
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

/** Pose slice names of the manipulated object, per task family, and of stack-cube's green cube. */
const OBJECT_POSE_SLICES = [['cube_pos', 'cube_quat'], ['peg_pos', 'peg_quat']] as const;
const SUPPORT_POSE_SLICES = [['base_cube_pos', 'base_cube_quat']] as const;

/** Copies a free body's pose from the first slice pair the spec has into qpos at adr; false if none applies. */
function setObjectPose(spec: ObsSpec, obs: Float32Array, qpos: Float32Array, adr: number, names: readonly (readonly [string, string])[]): boolean {
  if (adr < 0) return false;
  for (const [posName, quatName] of names) {
    const pos = slice(spec, obs, posName);
    const quat = slice(spec, obs, quatName);
    if (!pos || !quat) continue;
    qpos.set(pos, adr);
    qpos.set(quat, adr + 3);
    return true;
  }
  return false;
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
  const objectFromObservation = setObjectPose(spec, obs, qpos, scene.objectQposAdr, OBJECT_POSE_SLICES);
  setObjectPose(spec, obs, qpos, scene.supportQposAdr, SUPPORT_POSE_SLICES);
  const goal = slice(spec, obs, 'goal_pos');
  return { qpos, goal: goal ? Array.from(goal) : [0, 0, 0], tcp: Array.from(tcp), objectFromObservation };
}

/** A one-frame record of the state, for episodePoses. */
export function stateRecord(state: ObservationState, nq: number): EpisodeRecord {
  return { envIndex: 0, seed: 0, episodeReturn: 0, length: 0, success: false, nq, goal: state.goal, qpos: state.qpos };
}
