import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { envSteps, fixture, iteration, openStudio, waitForIteration } from './studio';

/** Screenshots for looking at by eye: what the assertions cannot judge (framing, legibility). */
const SHOTS = path.resolve('test-results/daily-use-shots');

async function shot(page: Page, name: string, testId?: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  if (testId) await page.getByTestId(testId).screenshot({ path: file });
  else await page.screenshot({ path: file });
}

/** Top of the workspace in the page: anything inserted above it (a banner) moves it. */
async function workspaceTop(page: Page): Promise<number> {
  return (await page.locator('.workspace').boundingBox())!.y;
}

test.describe('daily use', () => {
  test('noise sliders the method does not use are disabled with a reason; a refused value moves nothing', async ({ page }) => {
    // A million env steps: the schedule's last x tick sits at the plot's right edge.
    await openStudio(page, { overrides: ['noise.method=sde', 'noise.decay=constant', 'iterations=0', 'total_env_steps=1000000'] });
    const schedule = page.getByTestId('noise-schedule').locator('svg').first();
    const lastTick = schedule.locator('text').filter({ hasText: /^1M$/ });
    await expect(lastTick).toBeVisible();
    // The label lies wholly inside the plot: it is not cut to "1.0e+" or "1" at the edge.
    const [tickBox, plotBox] = [(await lastTick.boundingBox())!, (await schedule.boundingBox())!];
    expect(tickBox.x + tickBox.width).toBeLessThanOrEqual(plotBox.x + plotBox.width);
    const level = page.getByTestId('noise-level');
    const stdMin = page.getByTestId('noise-std_min');
    const stdMax = page.getByTestId('noise-std_max');
    await expect(level).toBeEnabled();
    await expect(stdMin).toBeDisabled();
    await expect(stdMax).toBeDisabled();
    await expect(page.getByTestId('noise-std_min-idle')).toHaveText('only the noise head (method noise) uses σ bounds; sde uses level a');
    await expect(page.getByTestId('noise-decay_steps')).toBeDisabled();
    await shot(page, 'noise-panel-sde', 'noise-panel');

    await page.getByTestId('noise-method').selectOption('noise');
    await expect(level).toBeDisabled();
    await expect(page.getByTestId('noise-level-idle')).toContainText('σ min and σ max');
    await expect(stdMin).toBeEnabled();
    await expect(stdMax).toBeEnabled();
    // σ min's slider ends at σ max: it cannot be dragged past it.
    const stdMaxValue = await page.getByTestId('noise-std_max-value').textContent();
    await expect(stdMin).toHaveAttribute('max', stdMaxValue!);
    await stdMin.fill('2');
    await expect(page.getByTestId('noise-std_min-value')).toHaveText(stdMaxValue!);
    await shot(page, 'noise-panel-noise-head', 'noise-panel');

    // A value the worker refuses (here a stale bound lets σ min pass σ max) is said in the panel; nothing above moves.
    const top = await workspaceTop(page);
    await stdMin.evaluate((input: HTMLInputElement) => { input.max = '1'; });
    await stdMin.fill('0.9');
    await expect(page.getByTestId('noise-problem')).toContainText('noise.std_min (0.9) must be ≤ noise.std_max');
    expect(await workspaceTop(page)).toBe(top);
    await expect(page.getByTestId('config-notice')).toHaveCount(0);
    await shot(page, 'noise-panel-refused', 'noise-panel');
  });

  test('a checkpoint for another task offers to switch; a cut-short file says so first; exports work with no run, tfjs as one download', async ({ page }) => {
    await openStudio(page);
    const input = page.getByTestId('checkpoint-input');
    const notice = page.getByTestId('checkpoint-notice');

    await input.setInputFiles(fixture('truncated.flowtune'));
    await expect(notice).toHaveClass(/notice-error/);
    await expect(notice).toHaveText(/^the file is cut short \([\d,]+ of [\d,]+ bytes\): tensor /);

    // No run: exports of the loaded checkpoint, the tfjs weights as one .zip.
    await expect(page.getByTestId('export-flowtune')).toBeEnabled();
    await expect(page.getByTestId('export-tfjs')).toBeEnabled();
    const downloads: string[] = [];
    page.on('download', (download) => downloads.push(download.suggestedFilename()));
    const [tfjs] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-tfjs').click()]);
    expect(tfjs.suggestedFilename()).toBe('pick-cube-bc.tfjs.zip');
    const zip = readFileSync((await tfjs.path())!);
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    expect(zip.includes('model.json')).toBe(true);
    expect(zip.includes('model.weights.bin')).toBe(true);
    const [flowtune] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-flowtune').click()]);
    expect(flowtune.suggestedFilename()).toBe('pick-cube-bc.flowtune');
    // Each click gave one file.
    expect(downloads).toEqual(['pick-cube-bc.tfjs.zip', 'pick-cube-bc.flowtune']);

    await input.setInputFiles(fixture('lift-tiny.flowtune'));
    await expect(notice).toHaveText(/^lift-tiny\.flowtune is a checkpoint for task 'lift'; the studio is set to 'pick-cube'/);
    await expect(notice).not.toContainText('the run is');
    await shot(page, 'checkpoint-other-task', 'checkpoint-panel');
    await page.getByTestId('checkpoint-switch-task').click();
    await expect(page.getByTestId('meta-task')).toHaveText('lift');
    await expect(page.getByTestId('task')).toHaveValue('lift');
    await expect(notice).toHaveText('lift-tiny.flowtune loaded: the next run starts from it');
  });

  test('tabs open at their top; the gallery holds the selected row still while training; counts have separators; Pause and Stop differ', async ({ page }) => {
    test.setTimeout(300_000);
    // Episodes of 40 steps: the 4 envs finish one each every 5 iterations of 8 steps. The gallery keeps
    // the newest 200, so a row stays listed for about 250 iterations, long enough to watch it held.
    await openStudio(page, { overrides: ['iterations=4000', 'eval.every=0', 'env.max_episode_steps=40', 'video.episodes=0'] });
    const tabBody = page.getByTestId('tab-body');
    await tabBody.evaluate((element) => { element.scrollTop = 600; });
    expect(await tabBody.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    await page.getByTestId('tab-inspect').click();
    expect(await page.getByTestId('tab-body').evaluate((element) => element.scrollTop)).toBe(0);
    await page.getByTestId('tab-charts').click();

    await page.getByTestId('train').click();
    await waitForIteration(page, 15);
    await page.getByTestId('tab-inspect').click();
    const rows = page.getByTestId('gallery-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(12);
    // By its id: rows keep arriving, so "the third row" names another one a moment later.
    const pickedId = (await rows.nth(2).getAttribute('data-episode-id'))!;
    const selected = page.locator(`[data-episode-id="${pickedId}"]`);
    await selected.click();
    await expect(selected).toHaveClass(/selected/);
    const before = (await selected.boundingBox())!.y;
    // Newer rows arrive above it (the list keeps 200, dropping the oldest at the bottom): its place in the list grows.
    const place = () => rows.evaluateAll((elements, id) => elements.findIndex((element) => element.getAttribute('data-episode-id') === id), pickedId);
    await expect.poll(place, { timeout: 120_000 }).toBeGreaterThanOrEqual(2 + 8);
    expect(Math.abs((await selected.boundingBox())!.y - before)).toBeLessThanOrEqual(1);
    await expect(selected).toBeInViewport();
    await expect(page.getByTestId('gallery-scroll')).not.toHaveJSProperty('scrollTop', 0);
    // The newer rows above are a click away.
    await expect(page.getByTestId('gallery-newest')).toBeVisible();

    // Env steps read with thousands separators once past 999.
    await expect.poll(() => envSteps(page), { timeout: 120_000 }).toBeGreaterThan(999);
    await expect(page.getByTestId('status-env-steps')).toHaveText(/^\d{1,3}(,\d{3})+$/);

    await page.getByTestId('pause').click();
    await expect(page.getByTestId('phase')).toHaveText('paused');
    await expect(page.getByTestId('halted-hint')).toHaveText('paused and saved: Resume or Step continues exactly where it halted');
    // Where it halted is the trainer's own line in the status bar.
    await expect(page.getByTestId('status-message')).toHaveText(new RegExp(`^paused at iteration ${await iteration(page)}`));
    await expect(page.getByTestId('pause')).toHaveAttribute('title', /^Pause: the run halts at its next decision/);
    await expect(page.getByTestId('stop')).toHaveAttribute('title', /^Stop: ends training for now/);
    await shot(page, 'controls-paused');
    await page.getByTestId('stop').click();
    await expect(page.getByTestId('phase')).toHaveText('stopped');
    await expect(page.getByTestId('halted-hint')).toHaveText('stopped and saved with its weights and metrics: Resume continues it, Reset… ends it');
    await shot(page, 'controls-stopped');

    await page.getByTestId('tab-charts').click();
    await shot(page, 'charts-and-schedule');
  });

  test('the TCP paths view frames the paths and says how to move the camera', async ({ page }) => {
    test.setTimeout(240_000);
    await openStudio(page, { overrides: ['iterations=400', 'eval.every=0'] });
    await page.getByTestId('step').click();
    await expect(page.getByTestId('phase')).toHaveText('paused', { timeout: 120_000 });
    await page.getByTestId('tab-inspect').click();
    const view = page.getByTestId('chain-paths');
    await expect(view).toHaveAttribute('data-pending', '0', { timeout: 120_000 });
    await expect(view).toHaveAttribute('data-chains', '16');
    await expect(page.getByTestId('camera-hint')).toHaveText('drag to orbit · wheel to zoom · right-drag to pan');
    // The state observation poses every object: none is left out, and no note is needed.
    await expect(page.getByTestId('chain-paths-note')).toHaveCount(0);
    await view.scrollIntoViewIfNeeded();
    await shot(page, 'tcp-paths', 'chain-paths');
  });
});

test.describe('daily use, point cloud', () => {
  test('the TCP paths view of a point-cloud policy leaves the unposed cube out and frames the paths', async ({ page }) => {
    test.setTimeout(300_000);
    await openStudio(page, { overrides: ['iterations=400', 'eval.every=0'] });
    await page.getByTestId('checkpoint-input').setInputFiles(path.resolve('public/checkpoints/pick-cube-pointcloud-bc.flowtune'));
    await expect(page.getByTestId('task')).toHaveValue('pick-cube:pointcloud');
    await page.getByTestId('step').click();
    await expect(page.getByTestId('phase')).toHaveText('paused', { timeout: 240_000 });
    await page.getByTestId('tab-inspect').click();
    const view = page.getByTestId('chain-paths');
    await expect(view).toHaveAttribute('data-pending', '0', { timeout: 120_000 });
    await expect(page.getByTestId('point-cloud-overlay')).toBeVisible();
    await expect(page.getByTestId('chain-paths-note')).toHaveText('The point-cloud observation gives no object pose: the objects are left out, and the points show where they are.');
    await view.scrollIntoViewIfNeeded();
    await shot(page, 'tcp-paths-pointcloud', 'chain-paths');
  });
});
