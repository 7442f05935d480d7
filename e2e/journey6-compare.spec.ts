import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fixture, openStudio } from './studio';

const QUEUED = ['ppo:clip_tight', 'lr:high'];

async function tickVariants(page: Page, names: string[]): Promise<void> {
  for (const name of names) await page.getByTestId('queue-variant').and(page.locator(`[value="${name}"]`)).check();
}

test.describe('journey 6: compare', () => {
  test('a queue of two variants runs to the end and resumes after a reload; their curves overlay, the diff names the keys they differ on, an imported sweep renders its table', async ({ page }) => {
    test.setTimeout(480_000);
    // Autosaves every iteration, so a reload finds the queue's run saved; eight iterations a run keep
    // the queue going while the page (slower than the trainer under software rendering) reloads.
    await openStudio(page, { overrides: ['iterations=8', 'checkpoint_every=1', 'eval.every=8'] });
    await page.getByTestId('tab-runs').click();
    await tickVariants(page, QUEUED);
    await page.getByTestId('queue-seeds').fill('0');
    await page.getByTestId('queue-start').click();
    await expect(page.getByTestId('queue-progress')).toContainText('queue 1 / 2');
    await expect(page.getByTestId('queue-item')).toHaveCount(2);

    // A reload mid-queue: the queue goes on by itself, from the run's autosave or from its start.
    await expect(page.getByTestId('saved-iteration')).toBeVisible({ timeout: 120_000 });
    await page.reload();
    // The reload fell mid-queue, which is what this checks; the queue's own run is not offered.
    await expect(page.getByTestId('queue-progress')).toHaveAttribute('data-phase', 'running');
    await expect(page.getByTestId('resume-banner')).toHaveCount(0);
    await page.getByTestId('tab-runs').click();
    await expect(page.getByTestId('queue-items')).toHaveAttribute('data-phase', 'done', { timeout: 360_000 });
    await expect(page.getByTestId('queue-item').and(page.locator('[data-state="done"]'))).toHaveCount(2);
    await expect(page.getByTestId('queue-progress')).toContainText('2 finished, 0 failed');

    // Both queue runs are listed, finished; selecting them overlays and diffs them.
    const queueRows = page.getByTestId('run-row').filter({ hasText: 'seed 0' });
    for (const name of QUEUED) {
      const row = queueRows.filter({ hasText: name });
      await expect(row).toHaveCount(1);
      await row.getByTestId('run-select').check();
    }
    const diffKeys = await page.getByTestId('config-diff-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key')));
    expect(diffKeys.sort()).toEqual(['actor_lr', 'critic_lr', 'ppo.clip_high', 'ppo.clip_low']);

    await page.getByTestId('tab-charts').click();
    await expect(page.getByTestId('legend-entry')).toHaveCount(2);
    const valueLoss = page.getByTestId('chart-losses-value');
    await expect(valueLoss).toHaveAttribute('data-series', '2');
    // Eight iterations each, every one with a value loss: both curves are drawn in full.
    await expect(valueLoss).toHaveAttribute('data-points', '16');
    // The header's number is the current run's (the queue's last), and says so.
    await expect(page.getByTestId('latest-owner-losses-value')).toHaveText('this run');
    await expect(page.getByTestId('latest-owner-losses-value')).toHaveAttribute('title', /current run/);
    await page.getByTestId('legend-entry').first().click();
    await expect(valueLoss).toHaveAttribute('data-series', '1');
    await page.getByTestId('legend-entry').first().click();
    await expect(valueLoss).toHaveAttribute('data-series', '2');

    // An imported sweep folder (written by npm run sweep in the e2e setup) renders its table and lists its runs.
    await page.getByTestId('tab-runs').click();
    const rowsBefore = await page.getByTestId('run-row').count();
    const sweepDir = fixture('sweep-reach-tiny');
    await page.getByTestId('runs-import-input').setInputFiles(sweepDir);
    await expect(page.getByTestId('runs-notice')).toContainText('imported 1 sweep with 2 runs');
    const summary = JSON.parse(readFileSync(path.join(sweepDir, 'summary.json'), 'utf8')) as { variants: { variant: string; success: { mean: number } }[] };
    const table = page.getByTestId('sweep-summary');
    await expect(table.getByTestId('sweep-summary-row')).toHaveCount(2);
    for (const variant of summary.variants) {
      await expect(table.getByTestId('sweep-summary-row').and(page.locator(`[data-variant="${variant.variant}"]`))).toContainText(`${(variant.success.mean * 100).toFixed(1)}%`);
    }
    await expect(page.getByTestId('run-row')).toHaveCount(rowsBefore + 2);
    // Kept runs can be deleted; the current run cannot.
    const imported = page.getByTestId('run-row').filter({ hasText: 'baseline · seed 0' });
    await imported.getByTestId('run-delete').click();
    await expect(page.getByTestId('run-row')).toHaveCount(rowsBefore + 1);
    await expect(page.getByTestId('run-row').filter({ hasText: 'current' }).getByTestId('run-delete')).toHaveCount(0);

    // A run's files dragged onto the drop zone (a drop without folder entries) import as one run.
    const runDir = path.join(sweepDir, 'runs', 'lr-high-s0');
    const dropped = ['metrics.jsonl', 'config.json'].map((name) => ({ name, text: readFileSync(path.join(runDir, name), 'utf8') }));
    const transfer = await page.evaluateHandle((files) => {
      const data = new DataTransfer();
      for (const file of files) data.items.add(new File([file.text], file.name, { type: 'application/json' }));
      return data;
    }, dropped);
    await page.getByTestId('runs-drop').dispatchEvent('drop', { dataTransfer: transfer });
    await expect(page.getByTestId('runs-notice')).toContainText('imported 1 run');
    await expect(page.getByTestId('run-row').filter({ hasText: 'dropped run' })).toHaveCount(1);
    await expect(page.getByTestId('run-row')).toHaveCount(rowsBefore + 2);

    // A corrupt run folder is refused in one sentence, and the list does not change.
    const corrupt = path.join(fixture('corrupt-run'), 'broken-run');
    mkdirSync(corrupt, { recursive: true });
    writeFileSync(path.join(corrupt, 'metrics.jsonl'), '{"progress/iteration": 1}\n{not json\n');
    writeFileSync(path.join(corrupt, 'config.json'), '{}');
    await page.getByTestId('runs-import-input').setInputFiles(corrupt);
    await expect(page.getByTestId('runs-notice')).toContainText('broken-run/metrics.jsonl line 2 is not valid JSON');
    await expect(page.getByTestId('run-row')).toHaveCount(rowsBefore + 2);

    // A torn last line (a run that crashed mid-write) is dropped with a warning in the notice, and the rest imports.
    const torn = path.join(fixture('torn-run'), 'torn-run');
    mkdirSync(torn, { recursive: true });
    writeFileSync(path.join(torn, 'metrics.jsonl'), '{"progress/iteration": 1, "progress/env_steps": 64}\n{"progress/iteration": 2, "progr');
    writeFileSync(path.join(torn, 'config.json'), '{}');
    await page.getByTestId('runs-import-input').setInputFiles(torn);
    await expect(page.getByTestId('runs-notice')).toContainText('imported 1 run; warning: torn-run/metrics.jsonl: line 2 is cut short');
    await expect(page.getByTestId('run-row').filter({ hasText: 'torn-run' })).toHaveCount(1);
    await expect(page.getByTestId('run-row')).toHaveCount(rowsBefore + 3);

    // A Gaussian PPO run folder (the baseline, trained on the command line) imports like any run.
    await page.getByTestId('runs-import-input').setInputFiles(fixture('gaussian-reach-tiny'));
    await expect(page.getByTestId('runs-notice')).toContainText('imported 1 run');
    await expect(page.getByTestId('run-row').filter({ hasText: 'gaussian-reach-tiny' })).toHaveCount(1);
    await expect(page.getByTestId('run-row')).toHaveCount(rowsBefore + 4);
  });
});
