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
    // The level slider offers only levels the sampler takes (DESIGN.md §3 "Step"): a > 0 for sde, 0 < a ≤ 1 for cps.
    const levelSlider = page.getByTestId('noise-level');
    await expect(levelSlider).toHaveAttribute('min', '0.01');
    await expect(levelSlider).toHaveAttribute('max', '5');
    await page.getByTestId('noise-method').selectOption('cps');
    await expect(levelSlider).toHaveAttribute('max', '1');
    await expect(levelSlider).toHaveAttribute('min', '0.01');
    await page.getByTestId('noise-method').selectOption('sde');
    await expect(levelSlider).toHaveAttribute('max', '5');
    await page.getByTestId('train').click();
    await waitForIteration(page, 2);
    await page.getByTestId('pause').click();
    await expect(page.getByTestId('phase')).toHaveText('paused');
    const changedAfter = await iteration(page);

    // level a: 0.5 → 1.5. For flow_sde σ_i = a·sqrt(t_i/(1−t_i)), so the std in use scales with a (DESIGN.md §3).
    await page.getByTestId('noise-level').fill('1.5');
    await expect(page.getByTestId('noise-level-value')).toHaveText('1.5');
    await expect(page).toHaveURL(/noise\.level=1\.5/);
    // A pause can land mid-rollout; that rollout finishes with the noise it started with,
    // and the next rollout uses the new value. Step twice to reach it.
    for (const target of [changedAfter + 1, changedAfter + 2]) {
      await page.getByTestId('step').click();
      await expect(page.getByTestId('status-iteration')).toHaveText(String(target));
      await expect(page.getByTestId('phase')).toHaveText('paused');
    }

    const records = await downloadJsonl(page);
    expect(records.map((record) => record['progress/iteration'])).toEqual(Array.from({ length: changedAfter + 2 }, (_, index) => index + 1));
    const before = records.slice(0, changedAfter);
    const next = records[changedAfter + 1];
    for (const record of before) expect(record['noise/level']).toBe(0.5);
    expect([0.5, 1.5]).toContain(records[changedAfter]['noise/level']);
    expect(next['noise/level']).toBe(1.5);
    const meanBefore = before.reduce((sum, record) => sum + record['noise/std'], 0) / before.length;
    // Three times the level: the mean std over 32 chains must rise well above the earlier iterations'.
    expect(next['noise/std']).toBeGreaterThan(1.8 * meanBefore);
  });
});
