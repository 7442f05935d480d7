/**
 * The workspace crop of a depth point cloud (DESIGN.md §19): DP3 and ManiFlow keep only the points
 * inside a box around the robot's workspace, which drops the table, the floor and the far background.
 */
import { TaskError } from '../../errors';

/** An axis-aligned world box; a bound may be ±Infinity (no limit on that side). */
export interface WorkspaceBox {
  readonly min: readonly [number, number, number];
  readonly max: readonly [number, number, number];
}

/** The box a task gets when it names none: everything above the ground plane z = 0, with 5 mm to spare so a floor or table top at z = 0 is cropped. */
export const DEFAULT_WORKSPACE: WorkspaceBox = { min: [-Infinity, -Infinity, 0.005], max: [Infinity, Infinity, Infinity] };

/** A task's workspace box as given, checked; a TaskError names the problem. */
export function checkWorkspaceBox(value: unknown, where: string): WorkspaceBox {
  const box = value as { min?: unknown; max?: unknown } | null;
  const isTriple = (triple: unknown): triple is [number, number, number] => Array.isArray(triple) && triple.length === 3 && triple.every((bound) => typeof bound === 'number' && !Number.isNaN(bound));
  if (typeof box !== 'object' || box === null || !isTriple(box.min) || !isTriple(box.max)) {
    throw new TaskError(`${where} must be { min: [x, y, z], max: [x, y, z] } in metres (world frame)`);
  }
  const { min, max } = box;
  for (let axis = 0; axis < 3; axis++) {
    if (!(min[axis] < max[axis])) throw new TaskError(`${where}: min[${axis}] (${min[axis]}) must be below max[${axis}] (${max[axis]})`);
  }
  return { min: [min[0], min[1], min[2]], max: [max[0], max[1], max[2]] };
}

/** Keeps the points [count, 3] of `points` inside `box` (bounds included), in order, at the front; returns how many. */
export function cropToWorkspace(points: Float64Array, count: number, box: WorkspaceBox): number {
  const { min, max } = box;
  let kept = 0;
  for (let point = 0; point < count; point++) {
    const x = points[point * 3], y = points[point * 3 + 1], z = points[point * 3 + 2];
    if (x < min[0] || x > max[0] || y < min[1] || y > max[1] || z < min[2] || z > max[2]) continue;
    if (kept !== point) {
      points[kept * 3] = x;
      points[kept * 3 + 1] = y;
      points[kept * 3 + 2] = z;
    }
    kept++;
  }
  return kept;
}
