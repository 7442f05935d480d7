import { expect, test } from '@playwright/test';
import { build, type Rolldown } from 'vite';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BackendNumbers } from './fixtures/backend-numerics/entry';

// DESIGN.md §7: the studio runs webgpu on a real GPU, which CI does not have; SwiftShader runs the
// same WGSL kernels on the CPU. One page runs the same small MLP and DiT-X policies on webgpu and
// on wasm: chain log-probs and values of fixed chains, and one whole PPO iteration (rollout on a
// pure-JS bandit env, GAE, two epochs of clipped-ratio updates, Adam). Every number must agree to
// 1e-4, relative to its size where it is larger than 1 (a float32 log-prob of −40 carries ~4e-6
// of rounding per op).
const TOLERANCE = 1e-4;
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));

async function bundledFixture(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: path.join(here, 'fixtures/backend-numerics/entry.ts'), formats: ['iife'], name: 'backendNumerics' },
    },
  });
  const bundles = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  return bundles[0].output[0].code;
}

/**
 * Largest |a − b| / max(1, |b|) over every compared value, with where it is; the first value
 * missing or not finite on either side is reported instead. Plain checks, one expect at the end:
 * an expect per value would cost Playwright a step each.
 */
function largestDifference(a: BackendNumbers, b: BackendNumbers): { value: number; where: string; compared: number; byGroup: Map<string, number>; problem?: string } {
  let worst = { value: 0, where: '', compared: 0, byGroup: new Map<string, number>() };
  for (const [architecture, numbers] of Object.entries(b.results)) {
    for (const [name, reference] of Object.entries(numbers)) {
      const other = a.results[architecture]?.[name];
      if (!other || other.length !== reference.length) return { ...worst, problem: `${architecture} ${name}: ${other?.length ?? 'no'} values on ${a.backend}, ${reference.length} on ${b.backend}` };
      for (let index = 0; index < reference.length; index++) {
        const [value, candidate] = [reference[index], other[index]];
        if (!Number.isFinite(value) || !Number.isFinite(candidate)) return { ...worst, problem: `${architecture} ${name}[${index}] is not finite: ${candidate} vs ${value}` };
        const difference = Math.abs(candidate - value) / Math.max(1, Math.abs(value));
        worst.compared++;
        const group = `${architecture} ${name.split('.')[0]}`;
        worst.byGroup.set(group, Math.max(worst.byGroup.get(group) ?? 0, difference));
        if (difference > worst.value) worst = { ...worst, value: difference, where: `${architecture} ${name}[${index}]: ${candidate} vs ${value}` };
      }
    }
  }
  return worst;
}

test('webgpu (SwiftShader) and wasm agree on chain log-probs and a PPO iteration, MLP and DiT-X', async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  const script = await bundledFixture();
  const origin = new URL(baseURL!).origin;
  // A blank same-origin page (WebGPU needs a secure context) and the wasm backend's binaries.
  await page.route(`${origin}/backend-numerics/**`, async (route) => {
    const name = path.basename(new URL(route.request().url()).pathname);
    if (name.endsWith('.wasm')) return route.fulfill({ body: readFileSync(path.join(wasmDir, name)), contentType: 'application/wasm' });
    return route.fulfill({ body: '<!doctype html><title>backend numerics</title>', contentType: 'text/html' });
  });
  await page.goto(`${origin}/backend-numerics/index.html`);
  await page.addScriptTag({ content: script });
  const run = (backend: string) => page.evaluate(([name, base]) => window.backendNumerics(name, base), [backend, `${origin}/backend-numerics/`] as const);
  const webgpu = await run('webgpu');
  const wasm = await run('wasm');
  expect(webgpu.backend).toBe('webgpu');
  expect(wasm.backend).toBe('wasm');
  // The DiT-X attention products on wasm go through the SIMD batched matmul in the browser too.
  expect(wasm.simdProducts).toBeGreaterThan(0);
  expect(webgpu.simdProducts).toBe(0);
  const worst = largestDifference(webgpu, wasm);
  expect(worst.problem).toBeUndefined();
  const groups = [...worst.byGroup].map(([group, value]) => `${group} ${value.toExponential(1)}`).join(', ');
  console.log(`backend numerics: ${wasm.simdProducts} SIMD batched matmuls on wasm; ${worst.compared} values, largest difference ${worst.value.toExponential(2)} at ${worst.where} (${groups})`);
  // The PPO iteration must have moved the weights well past the tolerance: agreement between two
  // barely trained policies would prove little.
  for (const architecture of ['mlp', 'ditx']) expect(wasm.results[architecture]['ppo.largest_weight_change'][0]).toBeGreaterThan(10 * TOLERANCE);
  expect(worst.compared).toBeGreaterThan(1000);
  expect(worst.value, worst.where).toBeLessThanOrEqual(TOLERANCE);
});
