import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { iteration, openStudio, waitForIteration } from './studio';

async function downloadJsonl(page: Page): Promise<Record<string, number>[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const text = readFileSync((await download.path())!, 'utf8');
  return text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, number>);
}

test.describe('journey 3: tune while training', () => {
  test('a noise slider reaches the worker and the next iteration logs the new noise', async ({ page }) => {
    await openStudio(page, { overrides: ['iterations=400', 'eval.every=0', 'noise.method=sde', 'noise.level=0.5'] });
    await page.getByTestId('train').click();
    await waitForIteration(page, 2);
    await page.getByTestId('pause').click();
    await expect(page.getByTestId('phase')).toHaveText('paused');
    const changedAfter = await iteration(page);

    // level a: 0.5 → 1.5. For flow_sde σ_i = a·sqrt(t_i/(1−t_i)), so the std in use scales with a (DESIGN.md §3).
    await page.getByTestId('noise-level').fill('1.5');
    await expect(page.getByTestId('noise-level-value')).toHaveText('1.5');
    await expect(page).toHaveURL(/noise\.level=1\.5/);
    await page.getByTestId('step').click();
    await waitForIteration(page, changedAfter + 1);
    await expect(page.getByTestId('phase')).toHaveText('paused');

    const records = await downloadJsonl(page);
    const before = records.filter((record) => record['progress/iteration'] <= changedAfter);
    const after = records.filter((record) => record['progress/iteration'] > changedAfter);
    expect(before.length).toBe(changedAfter);
    expect(after.length).toBe(1);
    for (const record of before) expect(record['noise/level']).toBe(0.5);
    expect(after[0]['noise/level']).toBe(1.5);
    const meanBefore = before.reduce((sum, record) => sum + record['noise/std'], 0) / before.length;
    // Three times the level: the mean std over 32 chains must rise well above the earlier iterations'.
    expect(after[0]['noise/std']).toBeGreaterThan(1.8 * meanBefore);
  });
});
