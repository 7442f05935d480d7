import { expect, test } from '@playwright/test';
import { iteration, openStudio, waitForIteration } from './studio';

test.describe('faults', () => {
  test('a crashed env worker is restarted and the run goes on; a trainer error is shown and the autosave stays', async ({ page }) => {
    test.setTimeout(240_000);
    await openStudio(page, { faults: true, overrides: ['iterations=400', 'eval.every=0', 'checkpoint_every=2'] });
    await page.getByTestId('train').click();
    await waitForIteration(page, 2);

    await page.getByTestId('fault-env').click();
    await expect(page.getByTestId('env-restarts')).toContainText('restarted 1×', { timeout: 60_000 });
    const afterCrash = await iteration(page);
    await waitForIteration(page, afterCrash + 2);
    await expect(page.getByTestId('phase')).toHaveText('running');
    await expect(page.getByTestId('saved-iteration')).toBeVisible();
    const saved = Number((await page.getByTestId('saved-iteration').textContent())!.replace(/\D+/g, ''));
    expect(saved).toBeGreaterThanOrEqual(2);

    await page.getByTestId('fault-trainer').click();
    await expect(page.getByTestId('phase')).toHaveText('error');
    await expect(page.getByTestId('run-error')).toContainText('injected fault');
    const lastSaved = Number((await page.getByTestId('saved-iteration').textContent())!.replace(/\D+/g, ''));
    expect(lastSaved).toBeGreaterThanOrEqual(saved);

    await page.reload();
    await expect(page.getByTestId('resume-iteration')).toHaveText(String(lastSaved));
  });

  test('fault hooks refuse to run without ?faults=1', async ({ page }) => {
    await openStudio(page, { overrides: ['iterations=400'] });
    await expect(page.getByTestId('fault-panel')).toHaveCount(0);
  });
});
