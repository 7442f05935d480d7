/**
 * Readers of the peg and the hole shared by the peg-insertion task, its reward
 * and its expert. The peg is symmetric end to end, so its axis is always taken
 * pointing up: "bottom" is the lower end face, whichever way the peg lies.
 */
import type { ArmView as TaskView } from '../kit/arm-view';
import { gripperGap, TOUCH_THRESHOLD } from '../kit/robot-state';
import { FINGER_OPEN } from '../kit/robot-mjcf';
import { PEG_HALF_HEIGHT, WALL_HEIGHT } from '../kit/peg-mjcf';

/** Grasp point: on the peg axis this far above the peg centre (m), 1.5 cm below its top. */
export const PEG_GRASP_OFFSET = 0.03;
/** Grasped needs the TCP within this distance of the grasp point (m). */
export const PEG_GRASP_DISTANCE = 0.02;

/** Unit peg axis [3] in the world frame, pointing up (z ≥ 0), from the free joint's quaternion. */
export function pegAxis(view: TaskView, out: Float64Array): Float64Array {
  const qpos = view.arrays.qpos;
  const adr = view.scene.objectQposAdr + 3;
  const w = qpos[adr], x = qpos[adr + 1], y = qpos[adr + 2], z = qpos[adr + 3];
  // Third column of the rotation matrix of (w, x, y, z), normalized against drift.
  const norm = w * w + x * x + y * y + z * z;
  let ax = (2 * (x * z + w * y)) / norm;
  let ay = (2 * (y * z - w * x)) / norm;
  let az = 1 - (2 * (x * x + y * y)) / norm;
  if (az < 0) {
    ax = -ax; ay = -ay; az = -az;
  }
  out[0] = ax; out[1] = ay; out[2] = az;
  return out;
}

const axis = new Float64Array(3);

/** Point on the peg axis `along` m above the peg centre (negative: below). */
function pegAxisPoint(view: TaskView, along: number, out: Float64Array): Float64Array {
  pegAxis(view, axis);
  const qpos = view.arrays.qpos;
  const adr = view.scene.objectQposAdr;
  for (let i = 0; i < 3; i++) out[i] = qpos[adr + i] + along * axis[i];
  return out;
}

/** Centre of the peg's lower end face [3]. */
export function pegBottom(view: TaskView, out: Float64Array): Float64Array {
  return pegAxisPoint(view, -PEG_HALF_HEIGHT, out);
}

/** Grasp point [3]: on the axis PEG_GRASP_OFFSET above the centre, near the top so the pads clear the walls. */
export function pegGraspPoint(view: TaskView, out: Float64Array): Float64Array {
  return pegAxisPoint(view, PEG_GRASP_OFFSET, out);
}

/** Height of the fixture's top face (m); the hole centre on the table is episode.goal, the fixture's origin. */
export function fixtureTop(view: TaskView): number {
  return view.episode.goal[2] + WALL_HEIGHT;
}

/** Horizontal distance from `point` to the hole's axis (m). */
export function lateralToHole(view: TaskView, point: ArrayLike<number>): number {
  const hole = view.episode.goal;
  return Math.hypot(point[0] - hole[0], point[1] - hole[1]);
}

/**
 * Grasped: both pads press (> TOUCH_THRESHOLD N), the jaws are not shut, and the TCP
 * is within PEG_GRASP_DISTANCE of the grasp point. Unlike the cube's test, the
 * reference is the grasp point near the top, not the peg centre 3 cm below it.
 */
export function isPegGrasped(view: TaskView, tcp: ArrayLike<number>, grasp: ArrayLike<number>): boolean {
  const sensordata = view.arrays.sensordata;
  const [left, right] = view.scene.touchAdr;
  if (sensordata[left] < TOUCH_THRESHOLD || sensordata[right] < TOUCH_THRESHOLD) return false;
  if (gripperGap(view) < 0.2 * FINGER_OPEN) return false;
  const dx = tcp[0] - grasp[0], dy = tcp[1] - grasp[1], dz = tcp[2] - grasp[2];
  return dx * dx + dy * dy + dz * dz < PEG_GRASP_DISTANCE * PEG_GRASP_DISTANCE;
}
