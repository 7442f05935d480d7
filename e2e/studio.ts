/** Page helpers shared by the journey specs. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export const FIXTURE_DIR = path.resolve('test-results/e2e-fixtures');

export function fixture(name: string): string {
  return path.join(FIXTURE_DIR, name);
}

/** Serves the tiny pick-cube fixture as the shipped checkpoint, so the preselection path runs on a small model. */
export async function routeShippedCheckpoint(page: Page): Promise<void> {
  await page.route('**/checkpoints/pick-cube-bc.flowtune', (route) =>
    route.fulfill({ status: 200, contentType: 'application/octet-stream', body: readFileSync(fixture('pick-cube-tiny.flowtune')) }));
}

export interface OpenOptions {
  backend?: 'webgpu' | 'wasm';
  /** 'key=value' overrides on top of the tiny preset. */
  overrides?: string[];
  faults?: boolean;
  /** The task the page should open on (default pick-cube, the studio's default). */
  task?: string;
  /** More query parameters, e.g. test builds' stub_backend_timings. */
  query?: Record<string, string>;
}

/** The tiny preset (4 envs, [32, 32] MLP) plus overrides, as a URL hash. */
export function tinyHash(overrides: string[] = []): string {
  const base = readFileSync(fixture('tiny.hash'), 'utf8').trim();
  return [base, ...overrides.map((pair) => pair.replace(',', '%2C'))].filter(Boolean).join('&');
}

export async function openStudio(page: Page, options: OpenOptions = {}): Promise<void> {
  await routeShippedCheckpoint(page);
  const query = new URLSearchParams();
  if (options.backend) query.set('backend', options.backend);
  if (options.faults) query.set('faults', '1');
  for (const [key, value] of Object.entries(options.query ?? {})) query.set(key, value);
  const search = query.toString();
  await page.goto(`/${search ? `?${search}` : ''}#${tinyHash(options.overrides)}`);
  await expect(page.getByTestId('backend')).toHaveText(/^(webgpu|wasm|cpu)$/);
  await expect(page.getByTestId('meta-task')).toHaveText(options.task ?? 'pick-cube');
}

export async function iteration(page: Page): Promise<number> {
  return Number(await page.getByTestId('status-iteration').textContent());
}

/** A count as the page writes it, with thousands separators ("252,690"). */
export function parseCount(text: string | null): number {
  return Number((text ?? '').replaceAll(',', ''));
}

export async function envSteps(page: Page): Promise<number> {
  return parseCount(await page.getByTestId('status-env-steps').textContent());
}

/** Waits until the status bar shows at least `count` iterations. */
export async function waitForIteration(page: Page, count: number, timeout = 120_000): Promise<number> {
  await expect.poll(() => iteration(page), { timeout }).toBeGreaterThanOrEqual(count);
  return iteration(page);
}

/** Exports ONNX, waits for the in-page onnxruntime-web check, and returns its max |Δ| and the downloaded bytes. */
export async function exportOnnxChecked(page: Page): Promise<{ maxAbsDifference: number; text: string; bytes: Uint8Array; name: string }> {
  await page.getByTestId('export-onnx').click();
  const check = page.getByTestId('onnx-check');
  await expect(check).toBeVisible({ timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('onnx-download').click()]);
  return {
    maxAbsDifference: Number(await check.getAttribute('data-max-abs-diff')),
    text: (await check.textContent()) ?? '',
    bytes: new Uint8Array(readFileSync((await download.path())!)),
    name: download.suggestedFilename(),
  };
}

/** Timing metrics (wall-clock and every perf/ column) differ between any two runs; everything else must not. */
const isTimingKey = (key: string): boolean => key === 'progress/wall_s' || key.startsWith('perf/');

/** The run's metrics as the Charts tab exports them (metrics.jsonl), without the timing columns. */
export async function exportedMetrics(page: Page): Promise<Record<string, number | string>[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const text = readFileSync((await download.path())!, 'utf8');
  return text.trim().split('\n').map((line) => {
    const record = JSON.parse(line) as Record<string, number | string>;
    for (const key of Object.keys(record)) if (isTimingKey(key)) delete record[key];
    return record;
  });
}

/**
 * Trains, reloads the page once the first autosave lands (the worker dies wherever it is; the newest
 * autosave is what is left), checks the resume banner offers an iteration between 2 and `total`, and
 * resumes: the run trains on to the end.
 */
export async function reloadMidRunAndResume(page: Page, total: number): Promise<void> {
  await page.getByTestId('train').click();
  await expect(page.getByTestId('saved-iteration')).toHaveText(/autosaved at iteration \d+/);
  await page.reload();
  await expect(page.getByTestId('resume-banner')).toBeVisible();
  const savedAt = Number(await page.getByTestId('resume-iteration').textContent());
  expect(savedAt).toBeGreaterThanOrEqual(2);
  expect(savedAt).toBeLessThan(total);
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 180_000 });
}

/** Types a value into a Config-tab field as a user does (opening its group), and waits until the trainer accepted it. */
export async function setConfigField(page: Page, group: string, key: string, value: string): Promise<void> {
  const details = page.getByTestId('config-panel').locator('details.config-group').filter({ has: page.locator('summary', { hasText: new RegExp(`^${group}$`) }) });
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open))) await details.locator('summary').click();
  const input = page.getByTestId(`config-${key.replace('.', '-')}`);
  await input.fill(value);
  await input.press('Enter');
  // Enter drops the draft: the field shows the accepted config, so the value stays only once the trainer took it.
  await expect(input, key).toHaveValue(value);
  await expect(page.getByTestId('config-notice')).toHaveCount(0);
}
