import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

/**
 * Identity, Slice and SplitV for the wasm backend without the copies tfjs-backend-wasm makes.
 *
 * Identity: tfjs clones every tensor a custom gradient saves for its backward pass (an Identity
 * per saved tensor), and the wasm Identity copies the data where the cpu backend shares it by
 * reference count. Tensors are immutable, so sharing is safe; the wasm backend counts references
 * already (its Reshape shares the same way).
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

let registered = false;

/**
 * Replaces the wasm backend's Identity, Slice and SplitV with the versions above. String tensors
 * keep tfjs's own kernels (they live outside the heap). Call once before the wasm backend runs.
 */
export function registerWasmKernels(): void {
  if (registered) return;
  registered = true;
  const original = {
    Slice: tf.getKernel('Slice', 'wasm'),
    SplitV: tf.getKernel('SplitV', 'wasm'),
    Identity: tf.getKernel('Identity', 'wasm'),
  };
  if (!original.Slice || !original.SplitV || !original.Identity) return;
  for (const [name, replacement] of [['Slice', sliceKernel], ['SplitV', splitVKernel], ['Identity', identityKernel]] as const) {
    const fallback = original[name]!.kernelFunc;
    tf.unregisterKernel(name, 'wasm');
    tf.registerKernel({
      kernelName: name,
      backendName: 'wasm',
      kernelFunc: ((args: Parameters<typeof replacement>[0]) =>
        args.inputs.x.dtype === 'string' ? fallback(args as unknown as Parameters<typeof fallback>[0]) : replacement(args as never)) as unknown as tf.KernelFunc,
    });
  }
}
