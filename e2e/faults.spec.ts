import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
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

  test('after repeated non-finite updates the studio offers a rollback to the newest autosave with half the actor lr; on_nonfinite=rollback takes it by itself', async ({ page, context }) => {
    test.setTimeout(240_000);
    await openStudio(page, { faults: true, overrides: ['iterations=400', 'eval.every=0', 'checkpoint_every=2', 'actor_lr=4e-4'] });
    await page.getByTestId('train').click();
    await waitForIteration(page, 3);
    await page.getByTestId('fault-nonfinite').click();
    await expect(page.getByTestId('phase')).toHaveText('error');
    await expect(page.getByTestId('run-error')).toContainText('non-finite loss or gradient');
    const saved = Number((await page.getByTestId('saved-iteration').textContent())!.replace(/\D+/g, ''));
    await expect(page.getByTestId('rollback')).toHaveText(`Roll back to iteration ${saved} with half the actor lr`);
    await page.getByTestId('rollback').click();
    await expect(page.getByTestId('phase')).toHaveText('paused');
    await expect(page.getByTestId('status-message')).toHaveText(`non-finite updates: rolled back to iteration ${saved} with actor_lr 0.0002 (rollback 1 of at most 4)`);
    await expect(page.getByTestId('status-iteration')).toHaveText(String(saved));
    await expect(page.getByTestId('record-count')).toHaveText(`${saved} iterations logged`);
    await expect(page.getByTestId('run-error')).toHaveCount(0);
    await page.getByTestId('train').click();
    await waitForIteration(page, saved + 2);

    await page.close();

    const auto = await context.newPage();
    await openStudio(auto, { faults: true, overrides: ['iterations=400', 'eval.every=0', 'checkpoint_every=2', 'actor_lr=4e-4', 'on_nonfinite=rollback'] });
    await auto.getByTestId('train').click();
    await waitForIteration(auto, 3);
    await auto.getByTestId('fault-nonfinite').click();
    const atFault = await iteration(auto);
    // The run rolls back by itself and goes on past the iteration where it stopped.
    await waitForIteration(auto, atFault + 3);
    await expect(auto.getByTestId('phase')).toHaveText('running');
    await expect(auto.getByTestId('run-error')).toHaveCount(0);
    await auto.getByTestId('pause').click();
    await expect(auto.getByTestId('phase')).toHaveText('paused');
    const [download] = await Promise.all([auto.waitForEvent('download'), auto.getByTestId('export-jsonl').click()]);
    const records = readFileSync((await download.path())!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, number>);
    // One rollback: logged on every record after it, with the actor lr halved; iterations stay consecutive.
    expect(records.at(-1)!['train/rollbacks']).toBe(1);
    expect(records.at(-1)!['train/actor_lr']).toBeCloseTo(2e-4, 10);
    expect(records[0]['train/rollbacks']).toBeUndefined();
    expect(records.map((record) => record['progress/iteration'])).toEqual(records.map((_, index) => index + 1));
  });

  test('fault hooks refuse to run without ?faults=1', async ({ page }) => {
    await openStudio(page, { overrides: ['iterations=400'] });
    await expect(page.getByTestId('fault-panel')).toHaveCount(0);
  });
});
