/**
 * Small dense float64 linear algebra for IK (row-major, sizes ≤ 7).
 */

/**
 * Solves A x = b in place for a symmetric positive definite A [n, n] by Cholesky.
 * `a` is overwritten with its factor; `b` [n] is overwritten with x.
 */
export function solveSpdInPlace(a: Float64Array, b: Float64Array, n: number): void {
  for (let col = 0; col < n; col++) {
    let diag = a[col * n + col];
    for (let k = 0; k < col; k++) diag -= a[col * n + k] * a[col * n + k];
    const pivot = Math.sqrt(Math.max(diag, 1e-300));
    a[col * n + col] = pivot;
    for (let row = col + 1; row < n; row++) {
      let sum = a[row * n + col];
      for (let k = 0; k < col; k++) sum -= a[row * n + k] * a[col * n + k];
      a[row * n + col] = sum / pivot;
    }
  }
  // Forward substitution L y = b, then back substitution Lᵀ x = y.
  for (let row = 0; row < n; row++) {
    let sum = b[row];
    for (let k = 0; k < row; k++) sum -= a[row * n + k] * b[k];
    b[row] = sum / a[row * n + row];
  }
  for (let row = n - 1; row >= 0; row--) {
    let sum = b[row];
    for (let k = row + 1; k < n; k++) sum -= a[k * n + row] * b[k];
    b[row] = sum / a[row * n + row];
  }
}
