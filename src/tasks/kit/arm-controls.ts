/**
 * Maps a normalized action in [-1, 1] to position-actuator targets (DESIGN.md §5).
 *
 * - `ee_delta_pos` (4-D): [dx, dy, dz, gripper]. The TCP moves by up to
 *   EE_DELTA_LIMIT m per control step along each world axis; damped-least-squares
 *   IK on the TCP site Jacobian turns that into joint targets, while holding the
 *   gripper pointing down with the jaws closing along world y.
 * - `joint_delta_pos` (8-D): [dq1..dq7, gripper]. Each joint target moves by up
 *   to JOINT_DELTA_LIMIT rad per control step.
 * - gripper: +1 fully open (jaw gap 8 cm), -1 fully closed; an absolute target.
 */
import type { DataArrays } from '../../core/envs/task-api';
import type { TaskControl, TaskView } from '../../core/envs/task-api';
import { ARM_DOF, armScene, type ArmScene } from './arm-scene';
import { ARM_HOME_QPOS, ARM_JOINT_RANGES, FINGER_OPEN } from './robot-mjcf';
import { createDlsScratch, dlsIkStep, orientationError } from './ik';

export const CONTROL_MODES = ['ee_delta_pos', 'joint_delta_pos'] as const;
export type ControlMode = (typeof CONTROL_MODES)[number];

/** m per control step at |action| = 1. */
export const EE_DELTA_LIMIT = 0.03;
/** rad per control step at |action| = 1. */
export const JOINT_DELTA_LIMIT = 0.1;
/** DLS damping λ. */
export const IK_DAMPING = 0.05;
/** Gain of the null-space pull toward the home posture, per control step. */
export const IK_NULL_GAIN = 0.05;
/** TCP targets are kept inside this box (m, world frame) so IK never chases the unreachable. */
export const WORKSPACE_LOW = [0.2, -0.45, 0.005] as const;
export const WORKSPACE_HIGH = [0.8, 0.45, 0.55] as const;

/** Gripper down, jaws along world y (the home orientation), row-major. */
export const TCP_TARGET_ROTATION: readonly number[] = [1, 0, 0, 0, -1, 0, 0, 0, -1];

export function actionDim(mode: ControlMode): number {
  return mode === 'ee_delta_pos' ? 4 : ARM_DOF + 1;
}

/** Reusable buffers of one controller; single-threaded use only. */
export class ArmController {
  private readonly jac = new Float64Array(6 * ARM_DOF);
  private readonly error = new Float64Array(6);
  private readonly nullBias = new Float64Array(ARM_DOF);
  private readonly dq = new Float64Array(ARM_DOF);
  private readonly scratch = createDlsScratch(6);

  constructor(readonly scene: ArmScene, readonly mode: ControlMode) {}

  /** Writes ctrl for an already clipped action [A]; positions must be forward-computed. */
  apply(arrays: DataArrays, action: ArrayLike<number>, actionOffset: number): void {
    const ctrl = arrays.ctrl;
    const qpos = arrays.qpos;
    if (this.mode === 'ee_delta_pos') {
      this.solveEeDelta(arrays, action, actionOffset);
      for (let joint = 0; joint < ARM_DOF; joint++) ctrl[joint] = clampJoint(joint, qpos[joint] + this.dq[joint]);
    } else {
      for (let joint = 0; joint < ARM_DOF; joint++) {
        ctrl[joint] = clampJoint(joint, qpos[joint] + JOINT_DELTA_LIMIT * action[actionOffset + joint]);
      }
    }
    const gripper = action[actionOffset + actionDim(this.mode) - 1];
    const finger = FINGER_OPEN * 0.5 * (gripper + 1);
    ctrl[ARM_DOF] = finger;
    ctrl[ARM_DOF + 1] = finger;
  }

  private solveEeDelta(arrays: DataArrays, action: ArrayLike<number>, actionOffset: number): void {
    const sitePos = arrays.siteXpos;
    const siteMat = arrays.siteXmat;
    const tcp = this.scene.tcpSiteId;
    for (let axis = 0; axis < 3; axis++) {
      const current = sitePos[tcp * 3 + axis];
      const target = Math.min(WORKSPACE_HIGH[axis], Math.max(WORKSPACE_LOW[axis], current + EE_DELTA_LIMIT * action[actionOffset + axis]));
      this.error[axis] = target - current;
    }
    orientationError(siteMat.subarray(tcp * 9, tcp * 9 + 9), TCP_TARGET_ROTATION, this.error, 3);
    const qpos = arrays.qpos;
    for (let joint = 0; joint < ARM_DOF; joint++) this.nullBias[joint] = IK_NULL_GAIN * (ARM_HOME_QPOS[joint] - qpos[joint]);
    this.scene.tcpJacobianFast(arrays, this.jac);
    dlsIkStep(this.jac, 6, ARM_DOF, this.error, IK_DAMPING, this.nullBias, this.dq, this.scratch);
  }
}

function clampJoint(joint: number, value: number): number {
  const [low, high] = ARM_JOINT_RANGES[joint];
  return Math.min(high, Math.max(low, value));
}

const controllers = new WeakMap<TaskView, Map<ControlMode, ArmController>>();

/** The env's controller of `mode`, built once per env (it holds scratch buffers). */
function controllerFor(view: TaskView, mode: ControlMode): ArmController {
  let byMode = controllers.get(view);
  if (!byMode) {
    byMode = new Map();
    controllers.set(view, byMode);
  }
  let controller = byMode.get(mode);
  if (!controller) {
    controller = new ArmController(armScene(view.mj, view.model), mode);
    byMode.set(mode, controller);
  }
  return controller;
}

/** The arm's two action spaces as the contract's custom controls (ee_delta_pos first: the default). */
export const ARM_CONTROLS: Readonly<Record<ControlMode, TaskControl>> = {
  ee_delta_pos: { kind: 'custom', dim: actionDim('ee_delta_pos'), act: (view, action, offset) => controllerFor(view, 'ee_delta_pos').apply(view.arrays, action, offset) },
  joint_delta_pos: { kind: 'custom', dim: actionDim('joint_delta_pos'), act: (view, action, offset) => controllerFor(view, 'joint_delta_pos').apply(view.arrays, action, offset) },
};
