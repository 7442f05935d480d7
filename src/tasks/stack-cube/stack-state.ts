/**
 * Readers of the two cubes shared by the stack-cube task and its expert: the
 * green cube's pose, free-joint speeds, and where the red cube stands relative
 * to the green one.
 */
import type { ArmView as TaskView } from '../kit/arm-view';
import { CUBE_HALF_SIZE } from '../kit/objects-mjcf';
import { freeJointPosition } from '../kit/robot-state';

/** Height of the red centre above the green centre when it rests on top (m): one cube edge. */
export const STACK_HEIGHT = 2 * CUBE_HALF_SIZE;

/** Green cube centre [3] from its free joint's qpos. */
export function baseCubePosition(view: TaskView, out: Float64Array): Float64Array {
  return freeJointPosition(view, view.scene.supportQposAdr, out);
}

/** Linear speed (m/s) of the free joint whose qvel starts at adr. */
export function freeJointSpeed(view: TaskView, adr: number): number {
  const qvel = view.arrays.qvel;
  return Math.hypot(qvel[adr], qvel[adr + 1], qvel[adr + 2]);
}

/** Larger linear speed of the two cubes (m/s). */
export function maxCubeSpeed(view: TaskView): number {
  return Math.max(freeJointSpeed(view, view.scene.objectQvelAdr), freeJointSpeed(view, view.scene.supportQvelAdr));
}

/** Horizontal distance between the red and green centres (m). */
export function lateralOffset(red: ArrayLike<number>, green: ArrayLike<number>): number {
  return Math.hypot(red[0] - green[0], red[1] - green[1]);
}

/** Red centre height above the resting-on-top height (m); 0 when stacked, negative when pressed or beside. */
export function heightAboveStack(red: ArrayLike<number>, green: ArrayLike<number>): number {
  return red[2] - green[2] - STACK_HEIGHT;
}
