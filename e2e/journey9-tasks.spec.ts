import { expect, test } from '@playwright/test';
import { openStudio, parseCount } from './studio';

/** The harder tasks of DESIGN.md §5; each ships a BC checkpoint the picker preselects. */
const TASKS = ['stack-cube', 'peg-insertion'] as const;

/** One iteration with an evaluation whose single episode is recorded for replay and video. */
const OVERRIDES = ['iterations=1', 'eval.every=1', 'eval_episodes=1', 'eval.record_episodes=1', 'video.every=0', 'video.episodes=1'];

test.describe('journey 9: the harder tasks', () => {
  for (const task of TASKS) {
    test(`${task}: the picker loads its shipped BC checkpoint, one iteration trains, and replay, chains and video draw its scene`, async ({ page }) => {
      test.setTimeout(300_000);
      await openStudio(page, { backend: 'wasm', overrides: OVERRIDES });
      const picker = page.getByTestId('task');
      await expect(picker.locator(`option[value="${task}"]`)).toHaveText(task);
      await picker.selectOption(task);
      await expect(page.getByTestId('meta-task')).toHaveText(task);
      await expect(page.getByTestId('checkpoint-meta')).toContainText(`checkpoints/${task}-bc.flowtune`);
      await expect(page.getByTestId('meta-stage')).toHaveText('bc');

      await page.getByTestId('tab-inspect').click();
      await page.getByTestId('train').click();
      await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 240_000 });
      await expect(page.getByTestId('status-iteration')).toHaveText('1');
      expect(parseCount(await page.getByTestId('status-env-steps').textContent())).toBeGreaterThan(0);

      // The evaluation's episode replays from its qpos and goal on the task's own scene.
      const evalRow = page.locator('[data-testid="gallery-row"][data-source="eval"]').first();
      await evalRow.click();
      const replay = page.getByTestId('replay-view');
      await expect(replay).toHaveAttribute('data-loading', '0', { timeout: 60_000 });
      await expect(page.getByTestId('replay-error')).toHaveCount(0);
      await expect(page.getByTestId('replay-caption')).toContainText(`${task} · iteration 1 · return`);
      const frames = Number((await page.getByTestId('replay-frame').textContent())!.split('/')[1]);
      expect(frames).toBeGreaterThan(0);
      // The scene moves: the first and the last frame draw different pictures.
      const canvas = page.getByTestId('replay-canvas');
      const scrub = page.getByTestId('replay-scrub');
      await canvas.scrollIntoViewIfNeeded();
      await scrub.fill('0');
      await expect(page.getByTestId('replay-frame')).toHaveText(`0 / ${frames}`);
      const first = await canvas.screenshot();
      await scrub.fill(String(frames));
      await expect(page.getByTestId('replay-frame')).toHaveText(`${frames} / ${frames}`);
      expect(Buffer.compare(first, await canvas.screenshot())).not.toBe(0);
      await page.screenshot({ path: `test-results/journey9-${task}.png`, fullPage: true });

      // Chains and TCP paths sample the policy on the run's newest observation of this task.
      await expect(page.getByTestId('chain-paths')).toHaveAttribute('data-pending', '0', { timeout: 120_000 });
      await expect(page.getByTestId('chain-paths')).toHaveAttribute('data-chains', /^[1-9]/);

      await expect(page.getByTestId('video-entry')).toHaveCount(1, { timeout: 120_000 });
      await expect(page.getByTestId('video-pending')).toHaveCount(0);
      await expect(page.getByTestId('video-list').locator('.notice-error')).toHaveCount(0);
    });
  }
});
