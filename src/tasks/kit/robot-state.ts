/**
 * Readers of the robot and object state shared by tasks, observations and experts.
 * MuJoCo arrays are live views into wasm memory: every reader copies numbers out.
 */
import { ARM_DOF } from './arm-scene';
import type { ArmView as TaskView } from './arm-view';
import { FINGER_OPEN } from './robot-mjcf';

/** Newtons on each pad above which the pad counts as touching. */
export const TOUCH_THRESHOLD = 0.5;

export function tcpPosition(view: TaskView, out: Float64Array): Float64Array {
  const sitePos = view.arrays.siteXpos;
  const base = view.scene.tcpSiteId * 3;
  out[0] = sitePos[base];
  out[1] = sitePos[base + 1];
  out[2] = sitePos[base + 2];
  return out;
}

/** Position [3] of the free joint whose qpos starts at adr. */
export function freeJointPosition(view: TaskView, adr: number, out: Float64Array): Float64Array {
  const qpos = view.arrays.qpos;
  out[0] = qpos[adr];
  out[1] = qpos[adr + 1];
  out[2] = qpos[adr + 2];
  return out;
}

/** Centre [3] of the manipulated object (the cube, or the peg) from its free joint's qpos. */
export function objectPosition(view: TaskView, out: Float64Array): Float64Array {
  return freeJointPosition(view, view.scene.objectQposAdr, out);
}

/** Jaw gap in m (sum of both finger slides). */
export function gripperGap(view: TaskView): number {
  const qpos = view.arrays.qpos;
  return qpos[view.scene.fingerQposAdr] + qpos[view.scene.fingerQposAdr + 1];
}

/** Largest |joint velocity| of the arm joints, rad/s. */
export function armMaxJointSpeed(view: TaskView): number {
  const qvel = view.arrays.qvel;
  let maxSpeed = 0;
  for (let joint = 0; joint < ARM_DOF; joint++) maxSpeed = Math.max(maxSpeed, Math.abs(qvel[joint]));
  return maxSpeed;
}

/**
 * Grasped: both pads press on something, the jaws are not fully closed (so
 * the pads hold an object between them), and the cube centre is within 3 cm of the TCP.
 */
export function isGrasped(view: TaskView, tcp: Float64Array, cube: Float64Array): boolean {
  const sensordata = view.arrays.sensordata;
  const [left, right] = view.scene.touchAdr;
  if (sensordata[left] < TOUCH_THRESHOLD || sensordata[right] < TOUCH_THRESHOLD) return false;
  if (gripperGap(view) < 0.2 * FINGER_OPEN) return false;
  return distance3(tcp, cube) < 0.03;
}

export function distance3(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** Shaping term 1 − tanh(scale·d) in (0, 1]. */
export function closeness(distance: number, scale: number): number {
  return 1 - Math.tanh(scale * distance);
}
