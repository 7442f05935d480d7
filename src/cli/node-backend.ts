import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AdapterSummary } from '../core/backend/choose-backend';
import { registerWasmKernels } from '../core/backend/wasm-kernels';
import { BackendError } from '../core/errors';
import { installDawnGpu, probeDawnAdapter, releaseDawnGpu } from './dawn-adapter';

export const NODE_BACKENDS = ['wasm', 'cpu', 'webgpu'] as const;
export type NodeBackend = (typeof NODE_BACKENDS)[number];

let wasmPathsSet = false;
/** The Dawn adapter once webgpu started in this process, or why it did not (asked once). */
let dawnAdapter: AdapterSummary | undefined;
let dawnFailure: unknown;

/** The WebGPU adapter behind the webgpu backend, once it started. */
export function nodeWebgpuAdapter(): AdapterSummary | undefined {
  return dawnAdapter;
}

/**
 * Selects a tfjs backend in Node. wasm is ~5x faster than cpu there; its .wasm files load from the
 * package's dist folder. webgpu runs on Dawn (the `webgpu` package) when an adapter starts, and
 * otherwise throws BackendError saying why none did.
 */
export async function useNodeBackend(backend: NodeBackend = 'wasm'): Promise<string> {
  if (backend === 'wasm' && !wasmPathsSet) {
    const require = createRequire(import.meta.url);
    const distDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    setWasmPaths(distDir + path.sep);
    wasmPathsSet = true;
    registerWasmKernels();
  }
  if (backend === 'webgpu' && !dawnAdapter) {
    if (dawnFailure) throw dawnFailure;
    try {
      const adapter = probeDawnAdapter();
      await installDawnGpu();
      dawnAdapter = adapter;
    } catch (error) {
      dawnFailure = error;
      throw error;
    }
  }
  let ok: boolean;
  try {
    ok = await tf.setBackend(backend);
  } catch (error) {
    throw new BackendError(`tfjs backend '${backend}' failed to initialize: ${(error as Error).message}`, backend);
  }
  if (!ok) throw new BackendError(`tfjs backend '${backend}' failed to initialize`, backend);
  await tf.ready();
  return tf.getBackend();
}

/** Frees the webgpu backend and Dawn, if they started, so the process can exit. */
export function releaseNodeBackends(): void {
  if (!dawnAdapter) return;
  if (tf.findBackend('webgpu')) tf.removeBackend('webgpu');
  releaseDawnGpu();
  dawnAdapter = undefined;
}
