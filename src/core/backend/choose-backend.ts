/** tfjs backends the studio can run on, in order of preference (DESIGN.md §7). */
export const BACKEND_NAMES = ['webgpu', 'wasm', 'cpu'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

/** What the WebGPU adapter says about itself; absent when there is no adapter. */
export interface AdapterSummary {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** `isFallbackAdapter` as reported by the browser. */
  isFallback: boolean;
}

/** True when the adapter is a CPU emulation (SwiftShader, or flagged as fallback), not a real GPU. */
export function isSoftwareAdapter(adapter: AdapterSummary | undefined): boolean {
  if (!adapter) return false;
  if (adapter.isFallback) return true;
  const text = `${adapter.vendor} ${adapter.architecture} ${adapter.device} ${adapter.description}`.toLowerCase();
  return text.includes('swiftshader') || text.includes('llvmpipe') || text.includes('lavapipe') || text.includes('software');
}

export function parseBackendName(value: string | null | undefined): BackendName | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if ((BACKEND_NAMES as readonly string[]).includes(value)) return value as BackendName;
  throw new RangeError(`backend must be one of ${BACKEND_NAMES.join(', ')} (got '${value}')`);
}

/**
 * The order in which to try backends. A forced backend goes first; otherwise webgpu
 * leads on a real GPU, and wasm leads on a software adapter, where it is faster.
 */
export function backendPreference(forced: BackendName | undefined, adapter: AdapterSummary | undefined): BackendName[] {
  const natural: BackendName[] = adapter && !isSoftwareAdapter(adapter) ? ['webgpu', 'wasm', 'cpu'] : ['wasm', 'webgpu', 'cpu'];
  const withoutGpu = adapter ? natural : natural.filter((name) => name !== 'webgpu');
  return forced ? [forced, ...withoutGpu.filter((name) => name !== forced)] : withoutGpu;
}
