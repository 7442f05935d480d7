import { expect, test, type Page } from '@playwright/test';
import { exportedMetrics, openStudio, reloadMidRunAndResume } from './studio';

async function trainToEnd(page: Page, iterations: number): Promise<void> {
  await page.getByTestId('train').click();
  await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 180_000 });
  await expect(page.getByTestId('record-count')).toHaveText(`${iterations} iterations logged`);
}

test.describe('journey 5: exact resume', () => {
  test('a reload mid-run resumes from the IndexedDB autosave and the next iterations equal an uninterrupted run', async ({ browser }) => {
    test.setTimeout(360_000);
    // Short episodes end inside every iteration, so env and seed-stream state both matter. Rollouts of
    // 32 decisions keep the run going well past the reload that follows the first autosave.
    const total = 12;
    const overrides = [`iterations=${total}`, 'eval.every=0', 'checkpoint_every=2', 'env.max_episode_steps=6', 'env.steps_per_iteration=32', 'seed=11'];

    const straightContext = await browser.newContext();
    const straight = await straightContext.newPage();
    await openStudio(straight, { overrides });
    await trainToEnd(straight, total);
    const expected = await exportedMetrics(straight);
    await straightContext.close();
    expect(expected).toHaveLength(total);

    const context = await browser.newContext();
    const page = await context.newPage();
    await openStudio(page, { overrides });
    // Reload while the run goes on; Resume restores the newest autosave and trains on to the end.
    await reloadMidRunAndResume(page, total);
    await expect(page.getByTestId('record-count')).toHaveText(`${total} iterations logged`);
    const resumed = await exportedMetrics(page);
    await context.close();

    // The first savedAt records come from the saved history, the rest are new: all equal the uninterrupted run.
    expect(resumed).toEqual(expected);
    expect(new Set(expected.map((record) => record['losses/policy'])).size).toBe(total);
  });
});
