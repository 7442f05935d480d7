import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { registerWasmAdamKernel } from './adam-kernel';
import { MAX_VECTORS, simdBatchMatMul, type BatchMatMulRunner } from './simd-batch-matmul';
import { backendMemory, heapOffset } from './wasm-heap';

/**
 * Identity, Cast, Slice, SplitV, Transpose and BatchMatMul for the wasm backend, without the copies
 * (or the slow loops) tfjs-backend-wasm has.
 *
 * Identity: tfjs clones every tensor a custom gradient saves for its backward pass (an Identity
 * per saved tensor), and the wasm Identity copies the data where the cpu backend shares it by
 * reference count. Tensors are immutable, so sharing is safe; the wasm backend counts references
 * already (its Reshape shares the same way).
 *
 * Transpose of a narrow matrix: see transposeKernel. Batched products of small matrices: see
 * batchMatMulKernel.
 *
 * Cast to the dtype a tensor already has: tfjs runs one in the gradient of every multiply (and in
 * tf.moments), and the wasm Cast copies the data; it shares it as Identity does. Casts that change
 * the dtype keep tfjs's kernel.
 *
 * Slice and SplitV read their input through a view of the wasm heap.
 * tfjs-backend-wasm's own Slice reads the input with `readSync`, which copies the whole tensor out
 * of the heap on every call; SplitV calls that Slice once per part, so splitting one tensor into
 * P parts copies it P times (a flat Adam vector of 267k floats into 100 parameters: about 140 ms
 * instead of under 1). The values are the same: both copy the selected elements in row-major order.
 */

type NumericArray = Float32Array | Int32Array | Uint8Array;

interface SliceInputs {
  x: tf.TensorInfo;
}

function heapView(backend: BackendWasm, info: tf.TensorInfo): NumericArray {
  return backend.typedArrayFromHeap(info) as NumericArray;
}

/**
 * Copies x[begin : begin + size] into a new row-major tensor. The innermost run that is contiguous
 * in x (every axis after the last partial one, plus that axis) is copied with one `set` per run.
 */
export function sliceFromHeap(backend: BackendWasm, x: tf.TensorInfo, begin: number[], size: number[]): tf.TensorInfo {
  const out = backend.makeOutput(size, x.dtype);
  if (size.some((extent) => extent === 0)) return out;
  // makeOutput may grow the heap, which detaches earlier views: take both views after it.
  const input = heapView(backend, x);
  const output = heapView(backend, out);
  const shape = x.shape;
  const rank = shape.length;
  const strides = new Array<number>(rank);
  strides[rank - 1] = 1;
  for (let axis = rank - 2; axis >= 0; axis--) strides[axis] = strides[axis + 1] * shape[axis + 1];
  // Axes from `inner` on form one contiguous run in x.
  let inner = rank - 1;
  while (inner > 0 && size[inner] === shape[inner]) inner--;
  const run = size.slice(inner).reduce((product, extent) => product * extent, 1);
  const outer = new Array<number>(inner).fill(0);
  const runs = size.slice(0, inner).reduce((product, extent) => product * extent, 1);
  let start = begin.reduce((offset, value, axis) => offset + value * strides[axis], 0);
  let outOffset = 0;
  for (let runIndex = 0; runIndex < runs; runIndex++) {
    output.set(input.subarray(start, start + run), outOffset);
    outOffset += run;
    // Odometer over the outer axes, moving `start` with it.
    for (let axis = inner - 1; axis >= 0; axis--) {
      if (++outer[axis] < size[axis]) {
        start += strides[axis];
        break;
      }
      start -= (size[axis] - 1) * strides[axis];
      outer[axis] = 0;
    }
  }
  return out;
}

function sliceKernel(args: { inputs: SliceInputs; attrs: { begin: number | number[]; size: number | number[] }; backend: BackendWasm }): tf.TensorInfo {
  const { inputs: { x }, attrs, backend } = args;
  const [begin, size] = tf.slice_util.parseSliceParams(x as tf.Tensor, attrs.begin, attrs.size);
  return sliceFromHeap(backend, x, begin, size);
}

function splitVKernel(args: { inputs: SliceInputs; attrs: { numOrSizeSplits: number | number[]; axis: number }; backend: BackendWasm }): tf.TensorInfo[] {
  const { inputs: { x }, attrs, backend } = args;
  const axis = tf.util.parseAxisParam(attrs.axis, x.shape)[0];
  const sizes = tf.backend_util.prepareSplitSize(x as tf.Tensor, attrs.numOrSizeSplits, axis);
  const begin = new Array<number>(x.shape.length).fill(0);
  return sizes.map((extent) => {
    const size = [...x.shape];
    size[axis] = extent;
    const part = sliceFromHeap(backend, x, [...begin], size);
    begin[axis] += extent;
    return part;
  });
}

function identityKernel(args: { inputs: SliceInputs; backend: BackendWasm }): tf.TensorInfo {
  const { inputs: { x }, backend } = args;
  backend.incRef(x.dataId);
  return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
}

function castKernel(args: { inputs: SliceInputs; attrs: { dtype: tf.DataType }; backend: BackendWasm }, fallback: tf.KernelFunc): tf.TensorInfo {
  if (args.attrs.dtype !== args.inputs.x.dtype) return fallback(args as unknown as Parameters<tf.KernelFunc>[0]) as tf.TensorInfo;
  return identityKernel(args);
}

/**
 * x [R, C] → xᵀ for narrow float32 matrices (C < 256, at least 32k elements: the token-row inputs
 * whose transpose a dense layer's weight gradient needs), written column by column from the heap;
 * about 1.7× faster at [2048, 64] than the wasm Transpose. Other shapes and permutations keep tfjs's.
 */
function transposeKernel(args: { inputs: SliceInputs; attrs: { perm: number[] }; backend: BackendWasm }, fallback: tf.KernelFunc): tf.TensorInfo {
  const { inputs: { x }, attrs: { perm }, backend } = args;
  if (x.shape.length !== 2 || perm[0] !== 1 || x.dtype !== 'float32' || x.shape[1] >= 256 || x.shape[0] * x.shape[1] < 32768) {
    return fallback(args as unknown as Parameters<tf.KernelFunc>[0]) as tf.TensorInfo;
  }
  const [rows, cols] = x.shape;
  const out = backend.makeOutput([cols, rows], x.dtype);
  const input = heapView(backend, x);
  const output = heapView(backend, out);
  for (let col = 0; col < cols; col++) {
    const base = col * rows;
    for (let row = 0, from = col; row < rows; row++, from += cols) output[base + row] = input[from];
  }
  return out;
}

/** The SIMD loop over each backend module's memory, made on first use; null where it cannot be made. */
const batchMatMulRunners = new WeakMap<object, BatchMatMulRunner | null>();

function runnerFor(backend: BackendWasm): BatchMatMulRunner | null {
  let runner = batchMatMulRunners.get(backend.wasm);
  if (runner === undefined) {
    const memory = backendMemory(backend);
    runner = (memory && simdBatchMatMul(memory)) || null;
    batchMatMulRunners.set(backend.wasm, runner);
  }
  return runner;
}

let simdProducts = 0;

/** How many batched matmuls ran through simdBatchMatMul in this process (to check the path is taken). */
export function simdBatchMatMulCalls(): number {
  return simdProducts;
}

/** tfjs-backend-wasm's scalar loop sums k in blocks of this many; up to one block, it sums as ours does. */
const SCALAR_LOOP_BLOCK = 48;

/**
 * a [G, M, K] · b [G, K, N] for G > 1, K ≤ 48 and N a multiple of 4 up to 16 (attention's per-head
 * products and their gradients), through simdBatchMatMul: over 20× faster than the wasm backend's
 * scalar loop at 1024 groups of 8×8 · 8×16, and the same bits, since both add the products in k
 * order in float32. Single products (xnnpack's), transposed operands, broadcast batches, deeper
 * sums and other widths keep tfjs's kernel.
 */
function batchMatMulKernel(args: { inputs: { a: tf.TensorInfo; b: tf.TensorInfo }; attrs: { transposeA: boolean; transposeB: boolean }; backend: BackendWasm }, fallback: tf.KernelFunc): tf.TensorInfo {
  const { inputs: { a, b }, attrs, backend } = args;
  const [groups, rows, depth] = a.shape;
  const columns = b.shape[2];
  const runner = runnerFor(backend);
  if (!runner || attrs.transposeA || attrs.transposeB || a.dtype !== 'float32' || b.dtype !== 'float32' || a.shape.length !== 3 || b.shape.length !== 3
    || groups < 2 || b.shape[0] !== groups || b.shape[1] !== depth || depth > SCALAR_LOOP_BLOCK || columns % 4 !== 0 || columns > 4 * MAX_VECTORS) {
    return fallback(args as unknown as Parameters<tf.KernelFunc>[0]) as tf.TensorInfo;
  }
  const out = backend.makeOutput([groups, rows, columns], 'float32');
  runner(heapOffset(backend, a), heapOffset(backend, b), heapOffset(backend, out), groups, rows, depth, columns);
  simdProducts++;
  return out;
}

let registered = false;

/**
 * Replaces the wasm backend's Identity, Cast, Slice, SplitV, Transpose and BatchMatMul with the
 * versions above, and adds NamedAdam's fused step (adam-kernel.ts). String tensors keep tfjs's own
 * kernels (they live outside the heap). Call once before the wasm backend runs.
 */
export function registerWasmKernels(): void {
  if (registered) return;
  registered = true;
  registerWasmAdamKernel();
  const names = ['Slice', 'SplitV', 'Identity', 'Cast', 'Transpose'] as const;
  const original = Object.fromEntries(names.map((name) => [name, tf.getKernel(name, 'wasm')]));
  if (names.some((name) => !original[name])) return;
  const replacements: Record<(typeof names)[number], (args: never, fallback: tf.KernelFunc) => tf.TensorInfo | tf.TensorInfo[]> = {
    Slice: sliceKernel, SplitV: splitVKernel, Identity: identityKernel, Cast: castKernel, Transpose: transposeKernel,
  };
  for (const name of names) {
    const { kernelFunc: fallback, setupFunc } = original[name]!;
    const replacement = replacements[name];
    tf.unregisterKernel(name, 'wasm');
    tf.registerKernel({
      kernelName: name,
      backendName: 'wasm',
      // tfjs's own kernels call Transpose's wasm function directly; its setup must still run.
      setupFunc,
      kernelFunc: ((args: Parameters<tf.KernelFunc>[0]) =>
        (args.inputs.x as tf.TensorInfo).dtype === 'string' ? fallback(args) : replacement(args as never, fallback)) as tf.KernelFunc,
    });
  }
  const batchMatMul = tf.getKernel('BatchMatMul', 'wasm');
  if (!batchMatMul) return;
  tf.unregisterKernel('BatchMatMul', 'wasm');
  tf.registerKernel({
    kernelName: 'BatchMatMul',
    backendName: 'wasm',
    setupFunc: batchMatMul.setupFunc,
    kernelFunc: ((args: Parameters<tf.KernelFunc>[0]) => batchMatMulKernel(args as never, batchMatMul.kernelFunc)) as tf.KernelFunc,
  });
}
