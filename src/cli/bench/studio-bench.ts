/**
 * `npm run bench -- studio`: the studio in headless Chromium (production build, wasm backend,
 * shipped pick-cube checkpoint, 4 envs): main-thread long tasks while training (DESIGN.md §7:
 * the main thread only renders), and what the live 3D view and rollout videos cost training.
 * Variants alternate over several rounds so drift in machine load falls on both alike.
 * Last, the default run (16 envs × 32 decisions) in the studio against the CLI, per iteration.
 */
import { DEFAULT_TASK } from '../../tasks';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { applyOverrides, defaultConfig, encodeConfigHash } from '../../core/config';
import { findChromium } from '../../../scripts/find-chromium.mjs';
import type { BenchRow } from './bench-row';
import { median } from './bench-timing';

const PORT = Number(process.env.BENCH_STUDIO_PORT ?? 4197);
const BUILD_DIR = 'test-results/bench-studio-build';
const VITE = 'node_modules/vite/bin/vite.js';
const ROUNDS = Number(process.env.BENCH_STUDIO_ROUNDS ?? 3);
const ITERATIONS = 12;
/** 4 envs × 8 decisions with the shipped checkpoint's own horizon and history. */
const BASE = ['num_envs=4', 'env.steps_per_iteration=8', 'ppo.minibatch_size=16', 'env.workers=1', 'policy.horizon=8', 'policy.n_action_steps=4', 'policy.n_obs_steps=2', `iterations=${ITERATIONS}`, 'checkpoint_every=0'];

interface Variant {
  name: string;
  overrides: string[];
  /** The tab open while training. */
  tab: 'Charts' | 'Inspect';
  liveView: boolean;
}

const NO_VIDEOS = ['eval.every=4', 'eval_episodes=2', 'video.episodes=0'];
/** The baseline trains with the Inspect tab open, so the live-view variant differs only by its toggle. */
const VARIANTS: Variant[] = [
  { name: 'baseline', overrides: NO_VIDEOS, tab: 'Inspect', liveView: false },
  { name: 'live view on', overrides: NO_VIDEOS, tab: 'Inspect', liveView: true },
  { name: 'videos on', overrides: ['eval.every=4', 'eval_episodes=2', 'eval.record_episodes=2', 'video.episodes=2'], tab: 'Inspect', liveView: false },
  { name: 'charts tab', overrides: NO_VIDEOS, tab: 'Charts', liveView: false },
];

interface Measured {
  secondsPerIteration: number;
  longTasks: number;
  longestTaskMs: number;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

async function waitForServer(url: string, server: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    if (server.exitCode !== null) throw new Error(`vite preview exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no server at ${url} after 60 s`);
}

async function measure(browser: Browser, variant: Variant): Promise<Measured> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.addInitScript(() => {
      const log = { count: 0, maxMs: 0, on: false };
      (window as unknown as { __longTasks: typeof log }).__longTasks = log;
      new PerformanceObserver((list) => {
        if (!log.on) return;
        for (const entry of list.getEntries()) {
          log.count++;
          log.maxMs = Math.max(log.maxMs, entry.duration);
        }
      }).observe({ type: 'longtask' });
    });
    const config = applyOverrides(defaultConfig(), [...BASE, ...variant.overrides]);
    await page.goto(`http://localhost:${PORT}/?backend=wasm#${encodeConfigHash(config)}`);
    await page.getByTestId('meta-stage').filter({ hasText: 'bc' }).waitFor({ timeout: 120_000 });
    await page.getByText(variant.tab, { exact: true }).click();
    if (variant.liveView) await page.getByTestId('live-toggle').check();
    await page.evaluate(() => { (window as unknown as { __longTasks: { on: boolean } }).__longTasks.on = true; });
    const started = performance.now();
    await page.getByTestId('train').click();
    await page.getByTestId('phase').filter({ hasText: 'done' }).waitFor({ timeout: 600_000 });
    const seconds = (performance.now() - started) / 1000;
    const log = await page.evaluate(() => (window as unknown as { __longTasks: { count: number; maxMs: number } }).__longTasks);
    return { secondsPerIteration: seconds / ITERATIONS, longTasks: log.count, longestTaskMs: log.maxMs };
  } finally {
    await page.close();
  }
}

/**
 * Milliseconds from moving the noise-level slider to the chain view showing chains at the new
 * level (sampled in the trainer worker, then drawn), with the default config and the shipped
 * checkpoint, no run: the journey-4 "redraw within one second" figure.
 */
async function measureChainResponse(browser: Browser): Promise<number[]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(`http://localhost:${PORT}/?backend=wasm`);
    await page.getByTestId('meta-stage').filter({ hasText: 'bc' }).waitFor({ timeout: 120_000 });
    await page.getByText('Inspect', { exact: true }).click();
    const view = page.getByTestId('chain-view');
    await page.locator('[data-testid="chain-view"][data-level="0.5"][data-pending="0"]').waitFor({ timeout: 120_000 });
    const times: number[] = [];
    for (const level of [0.8, 0.3, 0.6, 0.9, 0.2]) {
      const started = performance.now();
      await page.getByTestId('noise-level').fill(String(level));
      await page.locator(`[data-testid="chain-view"][data-level="${level}"][data-pending="0"]`).waitFor({ timeout: 30_000 });
      // Two animation frames: the charts of the new sample have been painted.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      times.push(performance.now() - started);
    }
    if (!(await view.isVisible())) throw new Error('the chain view is not visible');
    return times;
  } finally {
    await page.close();
  }
}

/** The default pick-cube run, evaluation off so both hosts time training iterations alone. */
const DEFAULT_RUN = ['task=pick-cube', 'iterations=8', 'eval.every=0'];
/** Iterations 1–2 compile kernels and fill caches; the steady state is timed from here on. */
const STEADY_FROM = 3;

/** Seconds per steady-state iteration from a run's metrics (progress/wall_s at each iteration). */
function steadySecondsPerIteration(records: Record<string, unknown>[]): number {
  const walls = records.filter((record) => typeof record['progress/wall_s'] === 'number').map((record) => record['progress/wall_s'] as number);
  if (walls.length < STEADY_FROM + 1) throw new Error(`expected at least ${STEADY_FROM + 1} iterations of metrics, got ${walls.length}`);
  return (walls[walls.length - 1] - walls[STEADY_FROM - 1]) / (walls.length - STEADY_FROM);
}

function parseJsonl(text: string): Record<string, unknown>[] {
  return text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The default run in the studio, Charts tab open; metrics come from its JSONL export. */
async function studioDefaultRun(browser: Browser): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    const config = applyOverrides(defaultConfig(), DEFAULT_RUN);
    await page.goto(`http://localhost:${PORT}/?backend=wasm#${encodeConfigHash(config)}`);
    await page.getByTestId('meta-stage').filter({ hasText: 'bc' }).waitFor({ timeout: 120_000 });
    await page.getByText('Charts', { exact: true }).click();
    await page.getByTestId('train').click();
    await page.getByTestId('phase').filter({ hasText: 'done' }).waitFor({ timeout: 600_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
    return steadySecondsPerIteration(parseJsonl(readFileSync((await download.path())!, 'utf8')));
  } finally {
    await page.close();
  }
}

/** The same run through `npm run train`. */
async function cliDefaultRun(): Promise<number> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'flowtune-bench-'));
  try {
    await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/cli/train.ts', ...DEFAULT_RUN, 'ckpt=public/checkpoints/pick-cube-bc.flowtune', `out=${out}`]);
    return steadySecondsPerIteration(parseJsonl(readFileSync(path.join(out, 'metrics.jsonl'), 'utf8')));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function runBench(): Promise<BenchRow[]> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('the studio bench needs Chromium: set CHROME_PATH or install chromium');
  console.error('building the studio...');
  await run(process.execPath, [VITE, 'build', '--outDir', BUILD_DIR, '--emptyOutDir', '--logLevel', 'warn']);
  // Vite itself (not through npx), so killing the child stops the server.
  const server = spawn(process.execPath, [VITE, 'preview', '--outDir', BUILD_DIR, '--port', String(PORT), '--strictPort'], { stdio: 'ignore' });
  let browser: Browser | undefined;
  try {
    await waitForServer(`http://localhost:${PORT}/`, server);
    browser = await chromium.launch({ executablePath, args: ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
    const response = await measureChainResponse(browser);
    console.error(`chain view redraw after a noise change: ${response.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    const results = new Map<string, Measured[]>(VARIANTS.map((variant) => [variant.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of VARIANTS) {
        const measured = await measure(browser, variant);
        console.error(`round ${round + 1}/${ROUNDS} ${variant.name}: ${measured.secondsPerIteration.toFixed(3)} s/iteration, ${measured.longTasks} long tasks (longest ${measured.longestTaskMs.toFixed(0)} ms)`);
        results.get(variant.name)!.push(measured);
      }
    }
    const studioSeconds: number[] = [];
    const cliSeconds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      studioSeconds.push(await studioDefaultRun(browser));
      cliSeconds.push(await cliDefaultRun());
      console.error(`round ${round + 1}/${ROUNDS} default run: studio ${studioSeconds.at(-1)!.toFixed(3)} s/iteration, CLI ${cliSeconds.at(-1)!.toFixed(3)} s/iteration`);
    }
    const base = median(results.get('baseline')!.map((entry) => entry.secondsPerIteration));
    const note = `pick-cube shipped checkpoint, ${BASE.join(' ')}; median of ${ROUNDS} alternating rounds`;
    const rows: BenchRow[] = [{
      group: 'studio', metric: 'chain view redraw after a noise change', value: median(response), unit: 'ms', task: DEFAULT_TASK, backend: 'wasm',
      note: `default config, shipped checkpoint, no run: slider moved to 5 levels, median; slowest ${Math.max(...response).toFixed(0)} ms`,
    }];
    const defaultNote = `default config, ${DEFAULT_RUN.join(' ')}, shipped BC checkpoint; iterations ${STEADY_FROM}–8 from progress/wall_s; median of ${ROUNDS} alternating rounds`;
    rows.push(
      { group: 'studio', metric: 'default run: studio s_per_iteration', value: median(studioSeconds), unit: 's', task: DEFAULT_TASK, backend: 'wasm', note: `${defaultNote}; Charts tab` },
      { group: 'studio', metric: 'default run: CLI s_per_iteration', value: median(cliSeconds), unit: 's', task: DEFAULT_TASK, backend: 'wasm', note: `${defaultNote}; npm run train` },
      { group: 'studio', metric: 'default run: studio / CLI', value: median(studioSeconds) / median(cliSeconds), unit: 'ratio', task: DEFAULT_TASK, backend: 'wasm', note: 'target ≤ 1.3' },
    );
    for (const variant of VARIANTS) {
      const entries = results.get(variant.name)!;
      const perIteration = median(entries.map((entry) => entry.secondsPerIteration));
      rows.push({ group: 'studio', metric: `${variant.name}: s_per_iteration`, value: perIteration, unit: 's', task: DEFAULT_TASK, backend: 'wasm', note: `${note}; ${variant.overrides.join(' ')}` });
      if (variant.name !== 'baseline') rows.push({ group: 'studio', metric: `${variant.name}: slowdown`, value: (perIteration / base - 1) * 100, unit: '%', task: DEFAULT_TASK, backend: 'wasm', note: 'against the baseline median' });
      rows.push({ group: 'studio', metric: `${variant.name}: main-thread long tasks`, value: Math.max(...entries.map((entry) => entry.longTasks)), unit: 'count', task: DEFAULT_TASK, backend: 'wasm', note: `over 50 ms while training, most in one round; longest ${Math.max(...entries.map((entry) => entry.longestTaskMs)).toFixed(0)} ms` });
    }
    return rows;
  } finally {
    await browser?.close();
    server.kill();
  }
}
