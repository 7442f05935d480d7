import { advance, decrement, functionBody, I32, instantiate, moduleBytes, op, V128, whileNonZero } from './wasm-bytes';

/**
 * Batched products of small matrices, C[g] = A[g]·B[g] for A [G, M, K] and B [G, K, N], as a
 * WebAssembly SIMD loop over the wasm backend's own memory. tfjs-backend-wasm sends every batched
 * matmul (G > 1) through a scalar blocked loop that runs at about 1 GFLOP/s on attention's
 * 8×16 · 16×8 groups; here each row of C is held in N/4 f32x4 accumulators while A's row streams
 * through, so a group costs M·K splats and M·K·N/4 vector multiply-adds.
 *
 * The module is written out byte by byte (wasm-bytes.ts; one function per N/4 ∈ 1..MAX_VECTORS) and
 * imports the backend's memory, so the operands are read where tfjs keeps them. Each sum adds the
 * products in k order in float32, as the scalar loop does within one of its 48-deep blocks.
 */

/** Widest N the module handles: N/4 accumulators per row of C. */
export const MAX_VECTORS = 4;

/**
 * (a, b, c, groups, m, k) with byte offsets a, b, c, for N = 4·vectors:
 * for each group, for each of its m rows, acc = Σ_k splat(A[row, k])·B[k, :], stored as C's row.
 */
function batchMatMulBody(vectors: number): number[] {
  const [a, b, c, groups, m, k] = [0, 1, 2, 3, 4, 5];
  const [row, step, bRow] = [6, 7, 8];
  const acc = (index: number) => 9 + index;
  const scalar = 9 + vectors;
  const rowBytes = 16 * vectors;
  const vectorsOf = (emit: (vector: number) => number[]) => Array.from({ length: vectors }, (_, vector) => emit(vector)).flat();
  const productStep = [
    ...op.get(a), ...op.f32Load, ...op.splat, ...op.set(scalar),
    ...vectorsOf((vector) => [...op.get(acc(vector)), ...op.get(scalar), ...op.get(bRow), ...op.v128Load(16 * vector), ...op.f32x4Mul, ...op.f32x4Add, ...op.set(acc(vector))]),
    ...advance(a, 4), ...advance(bRow, rowBytes), ...decrement(step),
  ];
  const rowOfC = [
    ...vectorsOf((vector) => [...op.f32Zero, ...op.splat, ...op.set(acc(vector))]),
    ...op.get(b), ...op.set(bRow), ...op.get(k), ...op.set(step),
    ...whileNonZero(step, productStep),
    ...vectorsOf((vector) => [...op.get(c), ...op.get(acc(vector)), ...op.v128Store(16 * vector)]),
    ...advance(c, rowBytes), ...decrement(row),
  ];
  const group = [...op.get(m), ...op.set(row), ...whileNonZero(row, rowOfC), ...advance(b, [...op.get(k), ...op.i32(rowBytes), ...op.mul]), ...decrement(groups)];
  return functionBody([[3, I32], [vectors + 1, V128]], whileNonZero(groups, group));
}

/** The module's bytes: bmm1..bmmMAX, each (a, b, c, groups, m, k) → nothing, over the imported env.memory. */
export function batchMatMulModuleBytes(): Uint8Array<ArrayBuffer> {
  return moduleBytes(Array.from({ length: MAX_VECTORS }, (_, index) => ({ name: `bmm${index + 1}`, params: Array(6).fill(I32), body: batchMatMulBody(index + 1) })));
}

/** C[g] = A[g]·B[g] on byte offsets into the memory the runner was made for. */
export type BatchMatMulRunner = (a: number, b: number, c: number, groups: number, m: number, k: number, n: number) => void;

/**
 * A runner over `memory`, or undefined where WebAssembly SIMD or the import is refused (the
 * caller keeps tfjs's kernel). N must be a multiple of 4, at most 4·MAX_VECTORS.
 */
export function simdBatchMatMul(memory: WebAssembly.Memory): BatchMatMulRunner | undefined {
  const exports = instantiate(batchMatMulModuleBytes(), memory);
  if (!exports) return undefined;
  const byVectors = Array.from({ length: MAX_VECTORS }, (_, index) => exports[`bmm${index + 1}`] as (...args: number[]) => void);
  return (a, b, c, groups, m, k, n) => byVectors[n / 4 - 1](a, b, c, groups, m, k);
}
