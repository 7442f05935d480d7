import { expect, test, type Locator, type Page } from '@playwright/test';
import { openStudio, parseCount } from './studio';

type MetricRecord = Record<string, number>;

const EVAL_EPISODES = 4;
const ITERATIONS = 2;

interface GalleryRow {
  source: string;
  iteration: number;
  success: boolean;
}

async function galleryRows(page: Page): Promise<GalleryRow[]> {
  return page.getByTestId('gallery-row').evaluateAll((rows) => rows.map((row) => ({
    source: row.getAttribute('data-source') ?? '',
    iteration: Number(row.getAttribute('data-iteration')),
    success: row.getAttribute('data-success') === 'true',
  })));
}

async function frameShown(page: Page): Promise<number> {
  return Number((await page.getByTestId('replay-frame').textContent())?.split('/')[0]);
}

/** Moves the scrub input to `frame` and waits for the counter. */
async function scrubTo(page: Page, scrub: Locator, frame: number): Promise<void> {
  await scrub.fill(String(frame));
  await expect.poll(() => frameShown(page)).toBe(frame);
}

test.describe('journey 4: episode gallery and 3D replay', () => {
  test('the gallery tags match the metrics, and the replay shows a changing scene', async ({ page }) => {
    test.setTimeout(300_000);
    // 28 decisions of 2 env steps per iteration: the 4 training envs reach the 100-step limit in
    // iteration 2, so both iterations have eval episodes and iteration 2 has training episodes too.
    await openStudio(page, {
      backend: 'wasm',
      overrides: [`iterations=${ITERATIONS}`, 'eval.every=1', `eval_episodes=${EVAL_EPISODES}`, 'env.steps_per_iteration=28'],
    });
    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 240_000 });
    await page.getByTestId('tab-inspect').click();

    // Every iteration evaluated: EVAL_EPISODES eval rows per iteration, plus the training episodes.
    await expect.poll(async () => (await galleryRows(page)).filter((row) => row.source === 'eval').length).toBe(ITERATIONS * EVAL_EPISODES);
    await expect.poll(() => page.evaluate(() => ((window as unknown as { __flowtuneMetrics?: MetricRecord[] }).__flowtuneMetrics ?? []).length)).toBe(ITERATIONS);
    const metrics = await page.evaluate(() => (window as unknown as { __flowtuneMetrics: MetricRecord[] }).__flowtuneMetrics);
    const rows = await galleryRows(page);
    for (const record of metrics) {
      const iteration = record['progress/iteration'];
      const evalRows = rows.filter((row) => row.source === 'eval' && row.iteration === iteration);
      expect(evalRows.length, `eval rows of iteration ${iteration}`).toBe(EVAL_EPISODES);
      // eval/success_rate is the mean over the iteration's eval episodes.
      expect(evalRows.filter((row) => row.success).length, `eval successes at iteration ${iteration}`).toBe(Math.round(record['eval/success_rate'] * EVAL_EPISODES));
      const trainRows = rows.filter((row) => row.source === 'train' && row.iteration === iteration);
      if (iteration === ITERATIONS) {
        // By env step 104 every one of the 4 training envs has finished an episode.
        expect(trainRows.length, `training rows of iteration ${iteration}`).toBeGreaterThanOrEqual(4);
      }
      // charts/success_rate is the mean over the iteration's finished training episodes, absent when none finished.
      if (trainRows.length === 0) expect(record['charts/success_rate']).toBeUndefined();
      else expect(trainRows.filter((row) => row.success).length / trainRows.length).toBeCloseTo(record['charts/success_rate'], 6);
    }
    // Newest first.
    expect(rows[0].iteration).toBe(ITERATIONS);
    expect(rows[rows.length - 1].iteration).toBe(1);

    const successes = rows.filter((row) => row.success).length;
    await page.getByTestId('gallery-filter').selectOption('success');
    await expect(page.getByTestId('gallery-row')).toHaveCount(successes);
    await page.getByTestId('gallery-filter').selectOption('failure');
    await expect(page.getByTestId('gallery-row')).toHaveCount(rows.length - successes);
    expect((await galleryRows(page)).every((row) => !row.success)).toBe(true);
    await page.getByTestId('gallery-filter').selectOption('all');

    // Open the newest eval episode.
    const firstEval = page.locator('[data-testid="gallery-row"][data-source="eval"]').first();
    const episodeId = await firstEval.getAttribute('data-episode-id');
    await firstEval.click();
    const view = page.getByTestId('replay-view');
    await expect(view).toHaveAttribute('data-episode', episodeId!);
    await expect(view).toHaveAttribute('data-loading', '0');
    await expect(page.getByTestId('replay-caption')).toContainText(`pick-cube · iteration ${ITERATIONS} · return`);
    const counter = (await page.getByTestId('replay-frame').textContent())!;
    const lastFrame = Number(counter.split('/')[1]);
    expect(lastFrame).toBeGreaterThan(4);

    const canvas = page.getByTestId('replay-canvas');
    const scrub = page.getByTestId('replay-scrub');
    await canvas.scrollIntoViewIfNeeded();
    await scrubTo(page, scrub, 0);
    const first = await canvas.screenshot();
    await scrubTo(page, scrub, lastFrame);
    const last = await canvas.screenshot();
    expect(first.length).toBeGreaterThan(1000);
    expect(Buffer.compare(first, last)).not.toBe(0);
    // Scrubbing back gives the first picture again: the scene is a function of the frame.
    await scrubTo(page, scrub, 0);
    expect(Buffer.compare(first, await canvas.screenshot())).toBe(0);

    await page.getByTestId('replay-speed').selectOption('4');
    await page.getByTestId('replay-play').click();
    await expect.poll(() => frameShown(page), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => frameShown(page), { timeout: 30_000 }).toBe(lastFrame);
    await expect(page.getByTestId('replay-play')).toHaveText('Play');
  });

  test('the TCP paths of the sampled chunks start at the TCP and spread with the noise level', async ({ page }) => {
    await openStudio(page, { backend: 'wasm', overrides: ['noise.method=sde', 'noise.mode=hybrid', 'noise.level=0.1'] });
    await page.getByTestId('step').click();
    await expect(page.getByTestId('phase')).toHaveText('paused', { timeout: 120_000 });
    await page.getByTestId('tab-inspect').click();
    const view = page.getByTestId('chain-paths');
    const low = await pathsAt(page, 0.1);
    await expect(view).toHaveAttribute('data-chains', '16');
    expect(low.count).toBe(16);
    const start = low.odePath.slice(0, 3);
    for (let chainIndex = 0; chainIndex < low.count; chainIndex++) {
      const path = low.paths.slice(chainIndex * (low.horizon + 1) * 3, (chainIndex + 1) * (low.horizon + 1) * 3);
      // Every chunk starts from the observed TCP, and each step moves at most 3 cm per axis.
      path.slice(0, 3).forEach((value, axis) => expect(value).toBeCloseTo(start[axis], 6));
      for (let step = 0; step < low.horizon; step++) {
        for (let axis = 0; axis < 3; axis++) expect(Math.abs(path[(step + 1) * 3 + axis] - path[step * 3 + axis])).toBeLessThanOrEqual(0.03 + 1e-6);
      }
    }
    const canvas = page.getByTestId('chain-paths-canvas');
    await canvas.scrollIntoViewIfNeeded();
    const lowShot = await canvas.screenshot();

    await page.getByTestId('noise-level').fill('1');
    const high = await pathsAt(page, 1);
    expect(endSpread(high)).toBeGreaterThan(2 * endSpread(low));
    expect(Buffer.compare(lowShot, await canvas.screenshot())).not.toBe(0);
  });

  test('the live view follows training env 0', async ({ page }) => {
    await openStudio(page, { backend: 'wasm', overrides: ['iterations=3'] });
    await page.getByTestId('tab-inspect').click();
    await page.getByTestId('live-toggle').check();
    await page.getByTestId('train').click();
    const live = page.getByTestId('live-view');
    await expect.poll(async () => Number(await live.getAttribute('data-frames')), { timeout: 120_000 }).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 120_000 });
    // After the run, one last poll shows the state it stopped in: the final iteration.
    await expect(page.getByTestId('live-meta')).toHaveText(/^iteration 3 · [\d,]+ env steps$/);
    const meta = (await page.getByTestId('live-meta').textContent())!;
    expect(parseCount(meta.split(' · ')[1].split(' ')[0])).toBe(parseCount(await page.getByTestId('status-env-steps').textContent()));
  });
});

interface ExposedPaths {
  count: number;
  horizon: number;
  paths: number[];
  odePath: number[];
}

/** Waits for the paths sampled at noise level `level` (the chain view shows the level in force). */
async function pathsAt(page: Page, level: number): Promise<ExposedPaths> {
  await expect(page.getByTestId('chain-view')).toHaveAttribute('data-level', String(level));
  await expect(page.getByTestId('chain-view')).toHaveAttribute('data-pending', '0');
  await expect(page.getByTestId('chain-paths')).toHaveAttribute('data-pending', '0');
  return page.evaluate(() => (window as unknown as { __flowtuneChainPaths: ExposedPaths }).__flowtuneChainPaths);
}

/** Mean distance of the chunks' end points from their centroid (m), in float64. */
function endSpread(sample: ExposedPaths): number {
  const ends = Array.from({ length: sample.count }, (_, chainIndex) => sample.paths.slice(((chainIndex + 1) * (sample.horizon + 1) - 1) * 3, (chainIndex + 1) * (sample.horizon + 1) * 3));
  const centroid = [0, 1, 2].map((axis) => ends.reduce((sum, end) => sum + end[axis], 0) / ends.length);
  return ends.reduce((sum, end) => sum + Math.hypot(end[0] - centroid[0], end[1] - centroid[1], end[2] - centroid[2]), 0) / ends.length;
}
