import { expect, test } from '@playwright/test';
import { iteration, openStudio, waitForIteration } from './studio';

test.describe('journey 5: keep and share', () => {
  test('an exported .flowtune re-imports with identical actions; a reload resumes from the saved iteration with its history', async ({ page }) => {
    test.setTimeout(240_000);
    await openStudio(page, { overrides: ['iterations=400', 'eval.every=0', 'checkpoint_every=2'] });
    await page.getByTestId('train').click();
    await waitForIteration(page, 3);
    await page.getByTestId('pause').click();
    await expect(page.getByTestId('phase')).toHaveText('paused');
    const pausedAt = await iteration(page);
    await expect(page.getByTestId('saved-iteration')).toHaveText(`autosaved at iteration ${pausedAt}`);

    await page.getByText('Eval actions for seed 7').click();
    await page.getByTestId('probe-run').click();
    const runActions = (await page.getByTestId('probe-run-values').textContent())!;
    expect(runActions.split(' ').map(Number).every(Number.isFinite)).toBe(true);
    expect(runActions.split(' ')).toHaveLength(4 * 4);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-flowtune').click()]);
    expect(download.suggestedFilename()).toBe(`pick-cube-ppo-it${pausedAt}.flowtune`);
    await page.getByTestId('checkpoint-input').setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/octet-stream', buffer: await readDownload(download) });
    await expect(page.getByTestId('checkpoint-notice')).toHaveClass(/notice-ok/);
    // A run exists, so the file waits for Reset: the Model panel still shows the run's model, and names the file.
    await expect(page.getByTestId('meta-stage')).toHaveText('bc');
    await expect(page.getByTestId('model-next')).toContainText(`pick-cube-ppo-it${pausedAt}.flowtune (ppo, iteration ${pausedAt})`);
    await page.getByTestId('probe-selected').click();
    await expect(page.getByTestId('probe-selected-values')).toHaveText(runActions);

    // The tfjs export is one download, a .zip of model.json and its weights, and re-imports to the same actions too.
    const downloads: import('@playwright/test').Download[] = [];
    page.on('download', (next) => downloads.push(next));
    const [tfjsZip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-tfjs').click()]);
    expect(tfjsZip.suggestedFilename()).toBe(`pick-cube-ppo-it${pausedAt}.tfjs.zip`);
    await page.getByTestId('checkpoint-input').setInputFiles({ name: tfjsZip.suggestedFilename(), mimeType: 'application/zip', buffer: await readDownload(tfjsZip) });
    await expect(page.getByTestId('checkpoint-notice')).toContainText(`pick-cube-ppo-it${pausedAt}.tfjs.zip is checked and waits for Reset`);
    // By the time the archive was read back, the click had started no second download.
    expect(downloads).toHaveLength(1);
    await page.getByTestId('probe-selected').click();
    await expect(page.getByTestId('probe-selected-values')).toHaveText(runActions);

    // Reload: the autosave made at pause is offered; Resume restores it with its history and trains on.
    await page.reload();
    await expect(page.getByTestId('resume-banner')).toBeVisible();
    await expect(page.getByTestId('resume-iteration')).toHaveText(String(pausedAt));
    await page.getByTestId('resume').click();
    await expect(page.getByTestId('phase')).toHaveText('running');
    await expect(page.getByTestId('meta-step')).toContainText(`(iteration ${pausedAt},`);
    await waitForIteration(page, pausedAt + 1);
    await page.getByTestId('pause').click();
    await expect(page.getByTestId('phase')).toHaveText('paused');
    // The history grows from the saved one: every iteration is logged once, on every chart.
    const resumedAt = await iteration(page);
    await expect(page.getByTestId('record-count')).toHaveText(`${resumedAt} iterations logged`);
    await expect(page.getByTestId('chart-losses-policy')).toHaveAttribute('data-points', String(resumedAt));
  });
});

async function readDownload(download: import('@playwright/test').Download): Promise<Buffer> {
  const { readFileSync } = await import('node:fs');
  return readFileSync((await download.path())!);
}
