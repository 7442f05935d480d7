/**
 * How the 3D views draw an arm task (DESIGN.md §1 journey 4): the camera, the TCP as the end
 * effector, the scene from one observation (joints, fingers and the objects' poses when the
 * observation has them), and the TCP path an ee_delta_pos chunk implies.
 */
import type { TaskRender } from '../../core/envs/task-api';
import { EE_DELTA_LIMIT, WORKSPACE_HIGH, WORKSPACE_LOW } from './arm-controls';
import { ARM_DOF, OBJECT_NAMES } from './arm-scene';
import { ROBOT_NAMES } from './robot-mjcf';

/** Pose slice names of the manipulated object (per task family) and of stack-cube's green cube, with their joints. */
const OBJECT_POSES = [['cube_joint', 'cube_pos', 'cube_quat'], ['peg_joint', 'peg_pos', 'peg_quat']] as const;
const SUPPORT_POSES = [['base_cube_joint', 'base_cube_pos', 'base_cube_quat']] as const;

type PoseSlices = readonly (readonly [string, string, string])[];

/** Copies a free body's pose from the first (joint, pos, quat) the scene and the observation both have; false when none applies. */
function setPose(slices: Readonly<Record<string, Float32Array>>, qpos: Float64Array, hasJoint: (joint: string) => number, poses: PoseSlices): boolean {
  for (const [joint, posName, quatName] of poses) {
    const adr = hasJoint(joint);
    const pos = slices[posName];
    const quat = slices[quatName];
    if (adr < 0 || !pos || !quat) continue;
    qpos.set(pos, adr);
    qpos.set(quat, adr + 3);
    return true;
  }
  return false;
}

export const ARM_RENDER: TaskRender = {
  // Oblique view from the front right, above the table.
  camera: { position: [1.45, 1.0, 0.9], target: [0.32, 0, 0.28] },
  endEffectorSite: ROBOT_NAMES.tcpSite,
  qposFromObservation(slices, qpos, view, mocapPos) {
    const joints = slices.joint_qpos;
    const fingers = slices.gripper_qpos;
    if (joints) qpos.set(joints.subarray(0, ARM_DOF), 0);
    if (fingers) qpos.set(fingers, view.qposAddress(ROBOT_NAMES.fingerJoints[0]));
    const jointAddress = (joint: string) => (view.id('joint', joint) >= 0 ? view.qposAddress(joint) : -1);
    const hasObject = OBJECT_POSES.some(([joint]) => view.id('joint', joint) >= 0);
    const objectShown = setPose(slices, qpos, jointAddress, OBJECT_POSES);
    setPose(slices, qpos, jointAddress, SUPPORT_POSES);
    // The goal marker (or peg fixture) sits at the goal the observation gives.
    const goal = slices.goal_pos;
    const marker = OBJECT_NAMES.goalBodies.map((name) => view.id('mocap', name)).find((id) => id >= 0);
    if (goal && marker !== undefined) mocapPos.set(goal, marker * 3);
    // A scene with no object (reach) has nothing drawn out of place.
    return objectShown || !hasObject;
  },
  actionPath(control, start, actions, steps, out) {
    const actionDim = actions.length / steps;
    if (control !== 'ee_delta_pos' || actionDim < 3) return false;
    const point = [start[0], start[1], start[2]];
    for (let step = 0; step < steps; step++) {
      for (let axis = 0; axis < 3; axis++) {
        const delta = EE_DELTA_LIMIT * Math.min(1, Math.max(-1, actions[step * actionDim + axis]));
        point[axis] = Math.min(WORKSPACE_HIGH[axis], Math.max(WORKSPACE_LOW[axis], point[axis] + delta));
      }
      out.set(point, step * 3);
    }
    return true;
  },
};
