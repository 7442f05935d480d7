import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import wasmPlainUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { registerWasmKernels } from '../src/core/backend/wasm-kernels';
import { backendPreference, isSoftwareAdapter, type AdapterSummary, type BackendName } from '../src/core/backend/choose-backend';
import { BackendError } from '../src/core/errors';
import type { BackendReport } from '../src/protocol/trainer-api';

// The threaded wasm build's pthread workers break once bundled (a blob worker throws on start),
// so run the single-threaded SIMD build; training parallelism comes from the env workers instead.
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
setWasmPaths({
  'tfjs-backend-wasm.wasm': wasmPlainUrl,
  'tfjs-backend-wasm-simd.wasm': wasmSimdUrl,
  'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimdUrl,
});
registerWasmKernels();

interface AdapterLike {
  info?: { vendor?: string; architecture?: string; device?: string; description?: string; isFallbackAdapter?: boolean };
  isFallbackAdapter?: boolean;
}

let adapterAsked: Promise<AdapterSummary | undefined> | undefined;

/** The WebGPU adapter the browser offers (asked once), or undefined. */
export function describeAdapter(): Promise<AdapterSummary | undefined> {
  adapterAsked ??= (async () => {
    const gpu = (self.navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    if (!gpu) return undefined;
    const adapter = (await gpu.requestAdapter().catch(() => null)) as AdapterLike | null;
    if (!adapter) return undefined;
    const info = adapter.info ?? {};
    return {
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      device: info.device ?? '',
      description: info.description ?? '',
      isFallback: Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter),
    };
  })();
  return adapterAsked;
}

/** Makes `backend` the one in use; throws BackendError when it cannot start. */
export async function startBrowserBackend(backend: BackendName): Promise<void> {
  if (!(await tf.setBackend(backend))) throw new BackendError(`tfjs backend '${backend}' did not start`, backend);
  await tf.ready();
}

/** The backends a timing compares: webgpu when there is an adapter, and wasm, in order of preference (cpu is the last resort). */
export async function timedCandidates(): Promise<BackendName[]> {
  return backendPreference(undefined, await describeAdapter()).filter((backend) => backend !== 'cpu');
}

/**
 * Starts tfjs in a worker before any model is timed: the forced backend, else webgpu on a real
 * GPU and wasm on a software adapter, cpu last (DESIGN.md §7). Timing the selected model may
 * then pick another (BackendChoice).
 */
export async function initBrowserBackend(forced: BackendName | undefined): Promise<BackendReport> {
  const adapter = await describeAdapter();
  const failures: BackendReport['failures'] = [];
  for (const backend of backendPreference(forced, adapter)) {
    try {
      await startBrowserBackend(backend);
      return { backend, adapter, softwareAdapter: isSoftwareAdapter(adapter), forced, failures, choice: forced === backend ? 'forced' : 'preference', speeds: [] };
    } catch (error) {
      failures.push({ backend, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  throw new BackendError(`no tfjs backend could start: ${failures.map((failure) => `${failure.backend}: ${failure.reason}`).join('; ')}`);
}
