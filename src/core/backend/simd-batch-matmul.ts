/**
 * Batched products of small matrices, C[g] = A[g]·B[g] for A [G, M, K] and B [G, K, N], as a
 * WebAssembly SIMD loop over the wasm backend's own memory. tfjs-backend-wasm sends every batched
 * matmul (G > 1) through a scalar blocked loop that runs at about 1 GFLOP/s on attention's
 * 8×16 · 16×8 groups; here each row of C is held in N/4 f32x4 accumulators while A's row streams
 * through, so a group costs M·K splats and M·K·N/4 vector multiply-adds.
 *
 * The module is written out byte by byte below (one function per N/4 ∈ 1..MAX_VECTORS) and imports
 * the backend's memory, so the operands are read where tfjs keeps them. Each sum runs over k in
 * order, as the scalar loop's does, so the two agree to float32 rounding of the same products.
 */

/** Widest N the module handles: N/4 accumulators per row of C. */
export const MAX_VECTORS = 4;

const I32 = 0x7f;
const V128 = 0x7b;

/** Unsigned LEB128. */
function uleb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/** Signed LEB128 for i32.const. */
function sleb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte);
      return bytes;
    }
    bytes.push(byte | 0x80);
  }
}

const op = {
  block: [0x02, 0x40], loop: [0x03, 0x40], end: [0x0b], br: (depth: number) => [0x0c, ...uleb(depth)], brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (local: number) => [0x20, ...uleb(local)], set: (local: number) => [0x21, ...uleb(local)],
  i32: (value: number) => [0x41, ...sleb(value)], add: [0x6a], sub: [0x6b], mul: [0x6c], eqz: [0x45],
  f32Load: [0x2a, 0x02, 0x00], f32Zero: [0x43, 0, 0, 0, 0],
  v128Load: (offset: number) => [0xfd, ...uleb(0), 0x00, ...uleb(offset)],
  v128Store: (offset: number) => [0xfd, ...uleb(11), 0x00, ...uleb(offset)],
  splat: [0xfd, ...uleb(19)], f32x4Add: [0xfd, ...uleb(228)], f32x4Mul: [0xfd, ...uleb(230)],
};

/** Adds `step` to local `index`. */
const advance = (index: number, step: number | number[]) => [...op.get(index), ...(typeof step === 'number' ? op.i32(step) : step), ...op.add, ...op.set(index)];
const decrement = (index: number) => [...op.get(index), ...op.i32(1), ...op.sub, ...op.set(index)];

/**
 * (a, b, c, groups, m, k) with byte offsets a, b, c, for N = 4·vectors:
 * for each group, for each of its m rows, acc = Σ_k splat(A[row, k])·B[k, :], stored as C's row.
 */
function functionBody(vectors: number): number[] {
  const [a, b, c, groups, m, k] = [0, 1, 2, 3, 4, 5];
  const [row, step, bRow] = [6, 7, 8];
  const acc = (index: number) => 9 + index;
  const scalar = 9 + vectors;
  const rowBytes = 16 * vectors;
  const code: number[] = [];
  code.push(...op.block, ...op.loop, ...op.get(groups), ...op.eqz, ...op.brIf(1));
  code.push(...op.get(m), ...op.set(row), ...op.block, ...op.loop, ...op.get(row), ...op.eqz, ...op.brIf(1));
  for (let vector = 0; vector < vectors; vector++) code.push(...op.f32Zero, ...op.splat, ...op.set(acc(vector)));
  code.push(...op.get(b), ...op.set(bRow), ...op.get(k), ...op.set(step));
  code.push(...op.block, ...op.loop, ...op.get(step), ...op.eqz, ...op.brIf(1));
  code.push(...op.get(a), ...op.f32Load, ...op.splat, ...op.set(scalar));
  for (let vector = 0; vector < vectors; vector++) {
    code.push(...op.get(acc(vector)), ...op.get(scalar), ...op.get(bRow), ...op.v128Load(16 * vector), ...op.f32x4Mul, ...op.f32x4Add, ...op.set(acc(vector)));
  }
  code.push(...advance(a, 4), ...advance(bRow, rowBytes), ...decrement(step), ...op.br(0), ...op.end, ...op.end);
  for (let vector = 0; vector < vectors; vector++) code.push(...op.get(c), ...op.get(acc(vector)), ...op.v128Store(16 * vector));
  code.push(...advance(c, rowBytes), ...decrement(row), ...op.br(0), ...op.end, ...op.end);
  code.push(...advance(b, [...op.get(k), ...op.i32(rowBytes), ...op.mul]), ...decrement(groups), ...op.br(0), ...op.end, ...op.end);
  code.push(...op.end);
  const locals = [2, ...uleb(3), I32, ...uleb(vectors + 1), V128];
  return [...uleb(locals.length + code.length), ...locals, ...code];
}

function section(id: number, contents: number[]): number[] {
  return [id, ...uleb(contents.length), ...contents];
}

function name(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  return [...uleb(bytes.length), ...bytes];
}

/** The module's bytes: one type (six i32 → nothing), the imported memory env.memory, and bmm1..bmmMAX. */
export function batchMatMulModuleBytes(): Uint8Array<ArrayBuffer> {
  const ids = Array.from({ length: MAX_VECTORS }, (_, index) => index + 1);
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 6, I32, I32, I32, I32, I32, I32, 0]),
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]),
    ...section(3, [...uleb(ids.length), ...ids.map(() => 0)]),
    ...section(7, [...uleb(ids.length), ...ids.flatMap((vectors, index) => [...name(`bmm${vectors}`), 0x00, ...uleb(index)])]),
    ...section(10, [...uleb(ids.length), ...ids.flatMap(functionBody)]),
  ];
  return Uint8Array.from(bytes);
}

/** C[g] = A[g]·B[g] on byte offsets into the memory the runner was made for. */
export type BatchMatMulRunner = (a: number, b: number, c: number, groups: number, m: number, k: number, n: number) => void;

/**
 * A runner over `memory`, or undefined where WebAssembly SIMD or the import is refused (the
 * caller keeps tfjs's kernel). N must be a multiple of 4, at most 4·MAX_VECTORS.
 */
export function simdBatchMatMul(memory: WebAssembly.Memory): BatchMatMulRunner | undefined {
  let exports: WebAssembly.Exports;
  try {
    exports = new WebAssembly.Instance(new WebAssembly.Module(batchMatMulModuleBytes()), { env: { memory } }).exports;
  } catch {
    return undefined;
  }
  const byVectors = Array.from({ length: MAX_VECTORS }, (_, index) => exports[`bmm${index + 1}`] as (...args: number[]) => void);
  return (a, b, c, groups, m, k, n) => byVectors[n / 4 - 1](a, b, c, groups, m, k);
}
