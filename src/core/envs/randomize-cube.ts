/** Seeded cube placement shared by the cube tasks. */
import type { Rng } from '../random';
import type { TaskView } from './task-types';
import { CUBE_HALF_SIZE } from './objects-mjcf';

/**
 * Places the cube at (cx ± halfRangeX, cy ± halfRangeY) on the table with a
 * uniform yaw in [-π, π), and records its rest height.
 */
export function placeCube(view: TaskView, rng: Rng, center: readonly [number, number], halfRange: readonly [number, number]): void {
  const qpos = view.arrays.qpos;
  const adr = view.scene.objectQposAdr;
  qpos[adr] = center[0] + halfRange[0] * (2 * rng.uniform() - 1);
  qpos[adr + 1] = center[1] + halfRange[1] * (2 * rng.uniform() - 1);
  qpos[adr + 2] = CUBE_HALF_SIZE;
  const yaw = Math.PI * (2 * rng.uniform() - 1);
  qpos[adr + 3] = Math.cos(yaw / 2);
  qpos[adr + 4] = 0;
  qpos[adr + 5] = 0;
  qpos[adr + 6] = Math.sin(yaw / 2);
  view.episode.objectRestZ = CUBE_HALF_SIZE;
}
