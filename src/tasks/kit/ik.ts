/**
 * Damped-least-squares inverse kinematics on the site Jacobian (DESIGN.md §5):
 *   dq = Jᵀ (J Jᵀ + λ² I)⁻¹ e  +  (I − Jᵀ (J Jᵀ + λ² I)⁻¹ J) z
 * where e stacks the position error (m) and the orientation error (rad), and z
 * is a null-space pull toward the home posture that keeps the elbow from drifting.
 */
import { solveSpdInPlace } from './linalg';

export interface DlsScratch {
  /** [rows, rows] */
  gram: Float64Array;
  /** [rows] */
  rhs: Float64Array;
  /** [rows] e − J z */
  jz: Float64Array;
}

/** Buffers reused across calls, so the control loop allocates nothing. */
export function createDlsScratch(rows: number): DlsScratch {
  return { gram: new Float64Array(rows * rows), rhs: new Float64Array(rows), jz: new Float64Array(rows) };
}

/**
 * Writes Jᵀ (J Jᵀ + λ² I)⁻¹ v into `out` [cols] for J [rows, cols] and v [rows].
 */
function dampedPseudoInverseApply(
  jac: Float64Array, rows: number, cols: number, damping: number, v: Float64Array, out: Float64Array, scratch: DlsScratch,
): void {
  const { gram, rhs } = scratch;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c <= r; c++) {
      let sum = 0;
      for (let k = 0; k < cols; k++) sum += jac[r * cols + k] * jac[c * cols + k];
      gram[r * rows + c] = sum;
      gram[c * rows + r] = sum;
    }
    gram[r * rows + r] += damping * damping;
    rhs[r] = v[r];
  }
  solveSpdInPlace(gram, rhs, rows);
  for (let k = 0; k < cols; k++) {
    let sum = 0;
    for (let r = 0; r < rows; r++) sum += jac[r * cols + k] * rhs[r];
    out[k] = sum;
  }
}

/**
 * One DLS step. jac [rows, cols], error [rows], nullBias [cols] (z, or null), out dq [cols].
 * By linearity both terms share one solve: dq = Jᵀ (J Jᵀ + λ² I)⁻¹ (e − J z) + z.
 */
export function dlsIkStep(
  jac: Float64Array, rows: number, cols: number, error: Float64Array, damping: number,
  nullBias: Float64Array | null, out: Float64Array, scratch: DlsScratch = createDlsScratch(rows),
): Float64Array {
  if (!nullBias) {
    dampedPseudoInverseApply(jac, rows, cols, damping, error, out, scratch);
    return out;
  }
  const residual = scratch.jz.length === rows ? scratch.jz : new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let k = 0; k < cols; k++) sum += jac[r * cols + k] * nullBias[k];
    residual[r] = error[r] - sum;
  }
  dampedPseudoInverseApply(jac, rows, cols, damping, residual, out, scratch);
  for (let k = 0; k < cols; k++) out[k] += nullBias[k];
  return out;
}

/**
 * Orientation error (rad, world frame) that rotates `current` toward `target`,
 * both row-major 3×3 rotation matrices: e = ½ Σᵢ cᵢ × tᵢ over their columns.
 */
export function orientationError(current: ArrayLike<number>, target: ArrayLike<number>, out: Float64Array, offset = 0): void {
  let ex = 0, ey = 0, ez = 0;
  for (let col = 0; col < 3; col++) {
    const cx = current[col], cy = current[3 + col], cz = current[6 + col];
    const tx = target[col], ty = target[3 + col], tz = target[6 + col];
    ex += cy * tz - cz * ty;
    ey += cz * tx - cx * tz;
    ez += cx * ty - cy * tx;
  }
  out[offset] = 0.5 * ex;
  out[offset + 1] = 0.5 * ey;
  out[offset + 2] = 0.5 * ez;
}
