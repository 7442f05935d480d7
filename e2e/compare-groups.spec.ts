import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fixture, openStudio } from './studio';

/**
 * Six run folders as `npm run train` writes them (config.json and metrics.jsonl): two learning
 * rates × seeds 0, 1, 2. Seed s at lr a logs success (0.1·i + 0.05·s) at iteration i, lr b half that.
 */
function writeSeedRuns(root: string): void {
  rmSync(root, { recursive: true, force: true });
  for (const [lrName, actorLr, scale] of [['lr-a', 0.001, 1], ['lr-b', 0.0003, 0.5]] as const) {
    for (const seed of [0, 1, 2]) {
      const folder = path.join(root, `${lrName}-s${seed}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'config.json'), JSON.stringify({ task: 'reach', actor_lr: actorLr, seed }));
      const lines = [1, 2, 3, 4, 5].map((iteration) => JSON.stringify({
        'progress/iteration': iteration, 'progress/env_steps': 64 * iteration, 'progress/wall_s': iteration,
        'charts/success_rate': scale * (0.1 * iteration + 0.05 * seed),
        ...(iteration === 5 ? { 'eval/success_rate': scale * (0.5 + 0.05 * seed) } : {}),
      }));
      writeFileSync(path.join(folder, 'metrics.jsonl'), `${lines.join('\n')}\n`);
    }
  }
}

test.describe('comparing runs by group', () => {
  test('the runs table filters and sorts; runs grouped by a config key draw one mean curve with a min–max band per value of it, three seeds each', async ({ page }) => {
    await openStudio(page);
    const root = fixture('seed-runs');
    writeSeedRuns(root);
    await page.getByTestId('tab-runs').click();
    await page.getByTestId('runs-import-input').setInputFiles(root);
    await expect(page.getByTestId('runs-notice')).toContainText('imported 6 runs');

    // The table filters by words and sorts by a column: by final eval success, best first.
    await page.getByTestId('run-filter').fill('lr-b');
    await expect(page.getByTestId('run-row')).toHaveCount(3);
    await page.getByTestId('run-filter').fill('');
    await expect(page.getByTestId('run-row')).toHaveCount(6);
    await page.getByTestId('run-sort-eval').click();
    await page.getByTestId('run-sort-eval').click();
    await expect(page.getByTestId('run-success')).toHaveText(['60.0%', '55.0%', '50.0%', '30.0%', '27.5%', '25.0%']);
    await expect(page.getByTestId('run-row').first()).toContainText('lr-a-s2');
    mkdirSync(path.resolve('test-results/daily-use-shots'), { recursive: true });
    await page.getByTestId('run-table').screenshot({ path: path.resolve('test-results/daily-use-shots/runs-table-sorted.png') });
    for (const name of ['lr-a-s0', 'lr-a-s1', 'lr-a-s2', 'lr-b-s0', 'lr-b-s1', 'lr-b-s2']) {
      await page.getByTestId('run-row').filter({ hasText: name }).getByTestId('run-select').check();
    }
    // The sweep scatter: a dot per run at its setting and final eval success.
    const scatter = page.getByTestId('sweep-scatter');
    await expect(scatter).toHaveAttribute('data-points', '6');
    await expect(page.getByTestId('scatter-key').locator('option')).toHaveText(['seed', 'actor_lr']);
    await page.getByTestId('scatter-key').selectOption('actor_lr');
    await expect(scatter.locator('circle')).toHaveCount(6);
    await scatter.screenshot({ path: path.resolve('test-results/daily-use-shots/sweep-scatter.png') });

    await page.getByTestId('tab-charts').click();
    const success = page.getByTestId('chart-charts-success_rate');
    await expect(success).toHaveAttribute('data-series', '6');
    // The runs differ on actor_lr and seed: those are the keys offered.
    await expect(page.getByTestId('group-by').locator('option')).toHaveText(['none (every run)', 'seed', 'actor_lr']);
    await page.getByTestId('group-by').selectOption('actor_lr');
    await expect(page.getByTestId('group-entry')).toHaveCount(2);
    await expect(page.getByTestId('group-entry').first()).toHaveText('actor_lr = 0.001 · 3 runs');
    await expect(page.getByTestId('group-entry').first()).toHaveAttribute('data-runs', '3');
    await expect(success).toHaveAttribute('data-bands', '2');
    await expect(success.locator('path.group-band')).toHaveCount(2);
    await success.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.resolve('test-results/daily-use-shots/grouped-runs.png') });

    await page.getByTestId('group-by').selectOption('');
    await expect(page.getByTestId('group-legend')).toHaveCount(0);
    await expect(success).toHaveAttribute('data-series', '6');
  });
});
