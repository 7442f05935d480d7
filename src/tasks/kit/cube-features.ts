/** State features of the cube shared by lift and pick-cube. */
import type { ArmSlice } from './arm-task';
import type { ArmView as TaskView } from './arm-view';
import { objectPosition, tcpPosition } from './robot-state';

export const CUBE_STATE_SLICES: readonly ArmSlice[] = [
  { name: 'cube_pos', dim: 3, doc: 'cube centre, world frame (m)' },
  { name: 'cube_quat', dim: 4, doc: 'cube orientation, unit quaternion (w, x, y, z)' },
  { name: 'tcp_to_cube', dim: 3, doc: 'cube − TCP (m)' },
];

const tcp = new Float64Array(3);
const cube = new Float64Array(3);

/** Writes the 10 values of CUBE_STATE_SLICES at out[offset]. */
export function writeCubeState(view: TaskView, out: Float32Array, offset: number): void {
  tcpPosition(view, tcp);
  objectPosition(view, cube);
  const qpos = view.arrays.qpos;
  const adr = view.scene.objectQposAdr;
  for (let axis = 0; axis < 3; axis++) out[offset + axis] = cube[axis];
  for (let q = 0; q < 4; q++) out[offset + 3 + q] = qpos[adr + 3 + q];
  for (let axis = 0; axis < 3; axis++) out[offset + 7 + axis] = cube[axis] - tcp[axis];
}
