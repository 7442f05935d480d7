import type * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

/** The backend module's WebAssembly.Memory, which the SIMD kernels import; undefined where the build does not expose it. */
export function backendMemory(backend: BackendWasm): WebAssembly.Memory | undefined {
  const memory = (backend.wasm as unknown as { asm?: { memory?: unknown } }).asm?.memory;
  return memory instanceof WebAssembly.Memory ? memory : undefined;
}

/** Where a tensor's data starts in the backend's heap, in bytes; unlike a view, it stays valid when the heap grows. */
export function heapOffset(backend: BackendWasm, info: tf.TensorInfo): number {
  return backend.typedArrayFromHeap(info).byteOffset;
}
