/**
 * WebGPU in Node through the `webgpu` package (Dawn). Whether an adapter starts is asked in a short
 * child process first: Dawn prints its own warnings straight to stderr (no Vulkan loader, a refused
 * software adapter), so they are read there and become the reason text of one error line, and
 * nothing is loaded into this process unless an adapter exists.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { AdapterSummary } from '../core/backend/choose-backend';
import { BackendError } from '../core/errors';

/** Resolves the package's entry; undefined when it is not installed (it is an optional dependency). */
function webgpuEntry(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('webgpu');
  } catch {
    return undefined;
  }
}

const PROBE = `
const { create } = await import(process.argv[1]);
const adapter = await create([]).requestAdapter({ powerPreference: 'high-performance' });
const info = adapter ? (adapter.info ?? {}) : undefined;
process.stdout.write(JSON.stringify(info ? {
  vendor: info.vendor ?? '', architecture: info.architecture ?? '', device: info.device ?? '', description: info.description ?? '',
  isFallback: Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter),
} : null));
process.exit(0);
`;

/** Dawn's stderr as one sentence: its messages without the source locations it appends. */
export function dawnReason(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('at '));
  return lines.map((line) => line.replace(/^(Warning|Error):\s*/i, '')).join('; ');
}

/** The adapter Dawn starts here, or a BackendError saying why none did (with Dawn's reason text). */
export function probeDawnAdapter(timeoutMs = 30_000): AdapterSummary {
  const entry = webgpuEntry();
  if (!entry) throw new BackendError('no WebGPU adapter started: the webgpu package (Dawn for Node) is not installed; run npm install webgpu', 'webgpu');
  const probe = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE, pathToFileURL(entry).href], { encoding: 'utf8', timeout: timeoutMs });
  const reason = dawnReason(probe.stderr ?? '');
  if (probe.error || probe.status !== 0) {
    const why = probe.error?.message ?? (probe.signal ? `the probe was ended by ${probe.signal}` : `the probe exited with status ${probe.status}`);
    throw new BackendError(`no WebGPU adapter started: ${reason || why}`, 'webgpu');
  }
  const adapter = JSON.parse(probe.stdout.trim() || 'null') as AdapterSummary | null;
  if (!adapter) throw new BackendError(`no WebGPU adapter started: ${reason || 'Dawn found no adapter'}`, 'webgpu');
  return adapter;
}

/** The adapter's name as rows and lines show it, e.g. "NVIDIA H100 80GB HBM3". */
export function adapterName(adapter: AdapterSummary): string {
  return adapter.description || [adapter.vendor, adapter.architecture, adapter.device].filter(Boolean).join(' ') || 'unnamed adapter';
}

let dawnGpu: unknown;

/**
 * Loads Dawn into this process and registers tfjs's webgpu backend on it (tfjs registers it on
 * import when `navigator.gpu` exists). Call after probeDawnAdapter found an adapter.
 */
export async function installDawnGpu(): Promise<void> {
  if (dawnGpu) return;
  const entry = webgpuEntry();
  if (!entry) throw new BackendError('no WebGPU adapter started: the webgpu package (Dawn for Node) is not installed; run npm install webgpu', 'webgpu');
  const { create, globals } = (await import(pathToFileURL(entry).href)) as { create(options: string[]): unknown; globals: Record<string, unknown> };
  Object.assign(globalThis, globals);
  dawnGpu = create([]);
  const scope = globalThis as { navigator?: object };
  if (scope.navigator) Object.defineProperty(scope.navigator, 'gpu', { value: dawnGpu, configurable: true });
  else scope.navigator = { gpu: dawnGpu };
  await import('@tensorflow/tfjs-backend-webgpu');
}

/** Lets the process exit: Dawn keeps it alive while its `gpu` object is referenced. */
export function releaseDawnGpu(): void {
  if (!dawnGpu) return;
  const scope = globalThis as { navigator?: { gpu?: unknown } };
  if (scope.navigator) delete scope.navigator.gpu;
  dawnGpu = undefined;
}
