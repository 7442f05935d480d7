/** Seeded cube placement shared by the cube tasks. */
import type { Rng } from '../../core/envs/task-api';
import type { ArmView as TaskView } from './arm-view';
import { CUBE_HALF_SIZE } from './objects-mjcf';

/**
 * Places the cube at (cx ± halfRangeX, cy ± halfRangeY) on the table with a
 * uniform yaw in [-π, π), and records its rest height.
 */
export function placeCube(view: TaskView, rng: Rng, center: readonly [number, number], halfRange: readonly [number, number]): void {
  const x = center[0] + halfRange[0] * (2 * rng.uniform() - 1);
  const y = center[1] + halfRange[1] * (2 * rng.uniform() - 1);
  setCubeOnTable(view.arrays.qpos, view.scene.objectQposAdr, x, y, randomYaw(rng));
  view.episode.objectRestZ = CUBE_HALF_SIZE;
}

/** Uniform yaw in [-π, π) (rad). */
export function randomYaw(rng: Rng): number {
  return Math.PI * (2 * rng.uniform() - 1);
}

/** Writes the free-joint qpos (at adr) of a 4 cm cube resting on the table at (x, y) with the given yaw (rad). */
export function setCubeOnTable(qpos: Float64Array, adr: number, x: number, y: number, yaw: number): void {
  qpos[adr] = x;
  qpos[adr + 1] = y;
  qpos[adr + 2] = CUBE_HALF_SIZE;
  qpos[adr + 3] = Math.cos(yaw / 2);
  qpos[adr + 4] = 0;
  qpos[adr + 5] = 0;
  qpos[adr + 6] = Math.sin(yaw / 2);
}
