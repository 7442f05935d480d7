import { writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { envSteps, openStudio, waitForIteration } from './studio';

interface LongTaskLog {
  count: number;
  maxMs: number;
}

test.describe('journey 1: default run', () => {
  test('trains pick-cube on webgpu (SwiftShader): charts get finite points, env steps rise, no other origin is contacted', async ({ page, baseURL }) => {
    test.setTimeout(300_000);
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== new URL(baseURL!).origin) foreign.push(request.url());
    });
    // Long tasks on the main thread while training (DESIGN.md §7: the main thread only renders).
    await page.addInitScript(() => {
      const log = { count: 0, maxMs: 0 };
      (window as unknown as { __longTasks: typeof log }).__longTasks = log;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          log.count++;
          log.maxMs = Math.max(log.maxMs, entry.duration);
        }
      }).observe({ type: 'longtask', buffered: true });
    });
    await openStudio(page, { backend: 'webgpu', overrides: ['iterations=3', 'eval.every=2'] });
    await expect(page.getByTestId('backend')).toHaveText('webgpu');
    await expect(page.getByTestId('task')).toHaveValue('pick-cube');
    await expect(page.getByTestId('meta-stage')).toHaveText('bc');
    const before = await page.evaluate(() => ({ ...(window as unknown as { __longTasks: LongTaskLog }).__longTasks }));

    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText(/running|starting/);
    await waitForIteration(page, 1, 200_000);
    const firstSteps = await envSteps(page);
    expect(firstSteps).toBeGreaterThan(0);
    await waitForIteration(page, 2, 200_000);
    expect(await envSteps(page)).toBeGreaterThan(firstSteps);

    for (const metric of ['losses-policy', 'losses-value', 'losses-approx_kl', 'noise-std', 'charts-episode_return', 'perf-env_steps_per_s']) {
      const chart = page.getByTestId(`chart-${metric}`);
      await expect.poll(async () => Number(await chart.getAttribute('data-points')), { message: metric }).toBeGreaterThanOrEqual(2);
      const latest = Number(await page.getByTestId(`latest-${metric}`).textContent());
      expect(Number.isFinite(latest), `${metric} latest value`).toBe(true);
    }
    await expect(page.getByTestId('chart-eval-success_rate')).toHaveAttribute('data-points', '1');
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 200_000 });

    const after = await page.evaluate(() => ({ ...(window as unknown as { __longTasks: LongTaskLog }).__longTasks }));
    const duringTraining = { count: after.count - before.count, maxMs: after.maxMs };
    writeFileSync('test-results/longtasks-journey1.json', JSON.stringify({ before, after, duringTraining }, null, 2));
    console.log(`main-thread long tasks: ${after.count} in total (${duringTraining.count} during training), longest ${after.maxMs.toFixed(0)} ms`);
    expect(foreign).toEqual([]);
  });
});
