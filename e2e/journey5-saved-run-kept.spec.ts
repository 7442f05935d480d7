import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { iteration, openStudio, waitForIteration } from './studio';

// Autosaves every 2 iterations, as well as on every pause.
const OVERRIDES = ['iterations=400', 'eval.every=0', 'checkpoint_every=2'];

/** Waits for `count` iterations, then pauses; the pause autosaves, so the run's save is at the iteration returned. */
async function pauseAfter(page: Page, count: number): Promise<number> {
  await waitForIteration(page, count);
  await page.getByTestId('pause').click();
  await expect(page.getByTestId('phase')).toHaveText('paused');
  const at = await iteration(page);
  await expect(page.getByTestId('saved-iteration')).toHaveText(`autosaved at iteration ${at}`);
  return at;
}

/** Start-up has finished (the probe runs after the resume offer is read). */
async function startedUp(page: Page): Promise<void> {
  await expect(page.getByTestId('probe-summary')).toBeVisible();
}

test.describe('journey 5: a saved run is never lost', () => {
  test('Train with a saved run offered keeps it in the Runs list with its weights; Reset asks and keeps; a dropped file waits for Reset; the kept run resumes at its own iteration', async ({ page }, testInfo) => {
    test.setTimeout(480_000);
    await openStudio(page, { overrides: OVERRIDES });
    await page.getByTestId('train').click();
    const firstAt = await pauseAfter(page, 3);

    // After a reload, Train (not Resume) starts a new run; the saved one is kept, and the page says so.
    await page.reload();
    await expect(page.getByTestId('resume-iteration')).toHaveText(String(firstAt));
    await page.getByTestId('train').click();
    await expect(page.getByTestId('run-notice')).toContainText(new RegExp(`^the saved run .+ from iteration ${firstAt} is kept in the Runs list with its weights: resume it there`));
    await expect(page.getByTestId('resume-banner')).toHaveCount(0);
    // The new run autosaves (iteration 2) and pauses: its saves land beside the kept run's, not over them.
    const secondAt = await pauseAfter(page, 3);

    // A checkpoint dropped while a run exists waits for Reset; the Model panel keeps describing the run's model.
    await page.getByTestId('checkpoint-input').setInputFiles(path.resolve('public/checkpoints/pick-cube-ppo.flowtune'));
    await expect(page.getByTestId('checkpoint-notice')).toHaveText('pick-cube-ppo.flowtune is checked and waits for Reset: the current run goes on with its own model');
    await expect(page.getByTestId('meta-source')).toHaveText('checkpoints/pick-cube-bc.flowtune');
    await expect(page.getByTestId('meta-stage')).toHaveText('bc');
    await expect(page.getByTestId('model-next')).toContainText('After Reset, Train starts from pick-cube-ppo.flowtune (ppo, iteration');
    await page.getByTestId('checkpoint-panel').screenshot({ path: testInfo.outputPath('model-panel-file-waits-for-reset.png') });

    // The kept run is listed with its weights and a Resume, which waits while a run exists.
    await page.getByTestId('tab-runs').click();
    const keptRow = page.getByTestId('run-row').filter({ has: page.getByTestId('run-resume') });
    await expect(keptRow).toHaveCount(1);
    await expect(keptRow.getByTestId('run-resume')).toHaveText(`resume at ${firstAt}`);
    await expect(keptRow.getByTestId('run-resume')).toBeDisabled();
    const keptId = (await keptRow.getAttribute('data-run-id'))!;

    // Reset asks once: Cancel leaves the run as it is.
    await page.getByTestId('reset').click();
    await expect(page.getByTestId('reset-ask')).toHaveText(new RegExp(`^Reset the run at iteration ${secondAt}\\? It stays in the Runs list with its weights as they are now, resumable there, and the charts clear\\.`));
    await page.screenshot({ path: testInfo.outputPath('reset-asks.png') });
    await page.getByTestId('reset-cancel').click();
    await expect(page.getByTestId('reset-ask')).toHaveCount(0);
    await expect(page.getByTestId('phase')).toHaveText('paused');
    // Confirmed, the run is kept in the Runs list with its weights, and the status bar names no autosave.
    await page.getByTestId('reset').click();
    await page.getByTestId('reset-confirm').click();
    await expect(page.getByTestId('phase')).toHaveText('idle');
    await expect(page.getByTestId('run-notice')).toContainText(new RegExp(`is kept in the Runs list with its weights from iteration ${secondAt}: resume it there`));
    await expect(page.getByTestId('saved-iteration')).toHaveCount(0);
    await expect(page.getByTestId('run-resume')).toHaveCount(2);
    // With no run, the Model panel shows the file Train now starts from.
    await expect(page.getByTestId('meta-source')).toHaveText('pick-cube-ppo.flowtune');
    await expect(page.getByTestId('model-next')).toHaveCount(0);

    // A reload after Reset offers nothing to resume; both runs wait in the Runs list.
    await page.reload();
    await startedUp(page);
    await expect(page.getByTestId('resume-banner')).toHaveCount(0);
    await page.getByTestId('tab-runs').click();
    await expect(page.getByTestId('run-resume')).toHaveCount(2);
    await page.screenshot({ path: testInfo.outputPath('runs-kept-after-reset.png') });

    // The first run resumes from its own save, at its own iteration, and trains: one click.
    const resumeKept = page.locator(`[data-testid="run-row"][data-run-id="${keptId}"]`).getByTestId('run-resume');
    await expect(resumeKept).toHaveText(`resume at ${firstAt}`);
    await resumeKept.click();
    await expect(page.getByTestId('phase')).toHaveText('running');
    await expect(page.locator(`[data-testid="run-row"][data-run-id="${keptId}"]`).getByTestId('run-origin')).toHaveText('current');
    await expect(page.getByTestId('meta-source')).toHaveText(new RegExp(` at iteration ${firstAt}$`));
    await expect(page.getByTestId('meta-step')).toContainText(`(iteration ${firstAt},`);
    const resumedAt = await pauseAfter(page, firstAt + 1);
    await page.getByTestId('tab-charts').click();
    await expect(page.getByTestId('record-count')).toHaveText(`${resumedAt} iterations logged`);
  });

  test('Resume on the banner is one click: the saved run is restored and trains on', async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    await openStudio(page, { overrides: OVERRIDES });
    await page.getByTestId('train').click();
    const savedAt = await pauseAfter(page, 2);

    await page.reload();
    await expect(page.getByTestId('resume-iteration')).toHaveText(String(savedAt));
    await page.getByTestId('resume-banner').screenshot({ path: testInfo.outputPath('resume-banner.png') });
    await page.getByTestId('resume').click();
    await expect(page.getByTestId('resume-banner')).toHaveCount(0);
    await expect(page.getByTestId('phase')).toHaveText('running');
    await expect(page.getByTestId('meta-step')).toContainText(`(iteration ${savedAt},`);
    await waitForIteration(page, savedAt + 1);
    // The saved history, then the new iterations.
    await expect.poll(async () => Number((await page.getByTestId('record-count').textContent())!.split(' ')[0])).toBeGreaterThan(savedAt);
  });
});
