import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { ShapeError } from '../errors';
import { adamInJavaScript, adamRunner, type AdamRunner, type AdamScalars } from './simd-adam';
import { backendMemory, heapOffset } from './wasm-heap';

/**
 * NamedAdam's step as one kernel of the wasm backend: inputs `m` and `v` (the flat moments) and, for
 * each parameter i in the flat order, `grad{i}` and `param{i}`; outputs [m', v', param'_0, …]. One
 * kernel call replaces the dozen-odd tensor ops per parameter that the same step costs otherwise,
 * with the same bits (simd-adam.ts). Backends without it keep NamedAdam's tensor ops.
 */
export const ADAM_KERNEL = 'FlowtuneAdamStep';

export interface AdamKernelAttrs extends AdamScalars {
  parameters: number;
  weightDecay: boolean;
}

/** The runner for each backend module's memory, made on first use. */
const runners = new WeakMap<object, AdamRunner>();

/** The SIMD runner over the backend's memory; where the memory is not exposed, JavaScript on its heap. */
function makeRunner(backend: BackendWasm): AdamRunner {
  const memory = backendMemory(backend);
  if (memory) return adamRunner(memory);
  return (offsets, count, scalars, weightDecay) => adamInJavaScript(new Float32Array((backend.wasm as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer), offsets, 0, count, scalars, weightDecay);
}

function adamKernel(args: { inputs: Record<string, tf.TensorInfo>; attrs: AdamKernelAttrs; backend: BackendWasm }): tf.TensorInfo[] {
  const { inputs, attrs, backend } = args;
  const params = Array.from({ length: attrs.parameters }, (_, index) => inputs[`param${index}`]);
  const grads = Array.from({ length: attrs.parameters }, (_, index) => inputs[`grad${index}`]);
  // The loop reads raw memory: a gradient of another size would be read past its end.
  const sizes = params.map((param, index) => {
    const size = tf.util.sizeFromShape(param.shape);
    if (tf.util.sizeFromShape(grads[index].shape) !== size || param.dtype !== 'float32' || grads[index].dtype !== 'float32') {
      throw new ShapeError(`grad${index}`, `Adam step: gradient ${index} is ${grads[index].dtype} [${grads[index].shape}], its parameter ${param.dtype} [${param.shape}]`);
    }
    return size;
  });
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (tf.util.sizeFromShape(inputs.m.shape) !== total || tf.util.sizeFromShape(inputs.v.shape) !== total) {
    throw new ShapeError('m', `Adam step: moments hold ${tf.util.sizeFromShape(inputs.m.shape)} and ${tf.util.sizeFromShape(inputs.v.shape)} values for ${total} parameters`);
  }
  const [mOut, vOut] = [backend.makeOutput(inputs.m.shape, 'float32'), backend.makeOutput(inputs.v.shape, 'float32')];
  const paramsOut = params.map((param) => backend.makeOutput(param.shape, 'float32'));
  let runner = runners.get(backend.wasm);
  if (!runner) runners.set(backend.wasm, (runner = makeRunner(backend)));
  const offset = (info: tf.TensorInfo) => heapOffset(backend, info);
  const [m, v, mNext, vNext] = [inputs.m, inputs.v, mOut, vOut].map(offset);
  let done = 0;
  params.forEach((param, index) => {
    const moments = 4 * done;
    runner({
      theta: offset(param), grad: offset(grads[index]), m: m + moments, v: v + moments,
      thetaOut: offset(paramsOut[index]), mOut: mNext + moments, vOut: vNext + moments,
    }, sizes[index], attrs, attrs.weightDecay);
    done += sizes[index];
  });
  return [mOut, vOut, ...paramsOut];
}

/** Registers the Adam step for the wasm backend (called by registerWasmKernels). */
export function registerWasmAdamKernel(): void {
  if (tf.getKernel(ADAM_KERNEL, 'wasm')) return;
  tf.registerKernel({ kernelName: ADAM_KERNEL, backendName: 'wasm', kernelFunc: adamKernel as unknown as tf.KernelFunc });
}
