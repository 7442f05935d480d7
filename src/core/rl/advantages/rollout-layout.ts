import { ShapeError } from '../../errors';

/**
 * Rollout arrays are time-major: entry (t, envIndex) lives at t·N + envIndex
 * of a flat [T, N] array (DESIGN.md §4).
 */
export interface RolloutSize {
  /** Decisions (chunks) per env in the rollout, T. */
  numSteps: number;
  /** Parallel envs, N. */
  numEnvs: number;
}

/** Any flat numeric array a rollout buffer may hand over. */
export type FlatArray = Float32Array | Float64Array | Uint8Array | Int32Array | ArrayLike<number>;

/** Throws a ShapeError unless T and N are positive integers. */
export function checkRolloutSize(size: RolloutSize): void {
  for (const field of ['numSteps', 'numEnvs'] as const) {
    const value = size[field];
    if (!Number.isInteger(value) || value <= 0) {
      throw new ShapeError(field, `${field} must be a positive integer, got ${value}`);
    }
  }
}

/** Throws a ShapeError unless `array` holds exactly `expected` entries. */
export function checkLength(field: string, array: FlatArray, expected: number, layout: string): void {
  if (array.length !== expected) {
    throw new ShapeError(field, `${field} has length ${array.length}, expected ${layout} = ${expected}`);
  }
}

/** Throws a ShapeError unless `array` is a flat [T, N] array. */
export function checkRolloutArray(field: string, array: FlatArray, size: RolloutSize): void {
  checkLength(field, array, size.numSteps * size.numEnvs, `T × N = ${size.numSteps} × ${size.numEnvs}`);
}

/** Throws a ShapeError unless `array` is a flat [N] array. */
export function checkEnvArray(field: string, array: FlatArray, size: RolloutSize): void {
  checkLength(field, array, size.numEnvs, `N`);
}

/** True where a mask (if any) keeps the entry. A missing mask keeps everything. */
export function isValid(mask: FlatArray | undefined, flatIndex: number): boolean {
  return mask === undefined || mask[flatIndex] !== 0;
}
