/**
 * Orthogonal initialization (Saxe et al.; PyTorch's nn.init.orthogonal_, which CleanRL's
 * layer_init uses): a Gaussian matrix orthonormalized by Gram–Schmidt in float64 along its
 * shorter side, times `gain`. Deterministic from the project RNG.
 */
import type { Rng } from '../random';

/** [rows, cols] row-major float32 with orthonormal columns (rows ≥ cols) or rows (rows < cols), scaled by gain. */
export function orthogonalMatrix(rows: number, cols: number, gain: number, rng: Rng): Float32Array {
  const short = Math.min(rows, cols);
  const long = Math.max(rows, cols);
  // `short` vectors of length `long`, made orthonormal one by one.
  const vectors: Float64Array[] = [];
  for (let index = 0; index < short; index++) {
    const vector = new Float64Array(long);
    for (;;) {
      for (let element = 0; element < long; element++) vector[element] = rng.normal();
      for (let pass = 0; pass < 2; pass++) {
        for (const previous of vectors) {
          let dot = 0;
          for (let element = 0; element < long; element++) dot += vector[element] * previous[element];
          for (let element = 0; element < long; element++) vector[element] -= dot * previous[element];
        }
      }
      let norm = 0;
      for (let element = 0; element < long; element++) norm += vector[element] ** 2;
      norm = Math.sqrt(norm);
      if (norm > 1e-6) {
        for (let element = 0; element < long; element++) vector[element] /= norm;
        break;
      }
    }
    vectors.push(vector);
  }
  const out = new Float32Array(rows * cols);
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      out[row * cols + col] = gain * (rows >= cols ? vectors[col][row] : vectors[row][col]);
    }
  }
  return out;
}
