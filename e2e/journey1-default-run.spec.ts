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
    await openStudio(page, { backend: 'webgpu', overrides: ['iterations=3', 'eval.every=2', 'eval_episodes=2'] });
    await expect(page.getByTestId('backend')).toHaveText('webgpu');
    await expect(page.getByTestId('task')).toHaveValue('pick-cube');
    await expect(page.getByTestId('meta-stage')).toHaveText('bc');
    const before = await page.evaluate(() => {
      const log = (window as unknown as { __longTasks: LongTaskLog }).__longTasks;
      const startup = { ...log };
      log.count = 0;
      log.maxMs = 0;
      return startup;
    });

    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText(/running|starting/);
    await waitForIteration(page, 1, 200_000);
    const firstSteps = await envSteps(page);
    expect(firstSteps).toBeGreaterThan(0);
    await waitForIteration(page, 2, 200_000);
    expect(await envSteps(page)).toBeGreaterThan(firstSteps);

    for (const metric of ['losses-policy', 'losses-value', 'losses-approx_kl', 'noise-std', 'losses-entropy', 'train-actor_lr', 'perf-env_steps_per_s']) {
      const chart = page.getByTestId(`chart-${metric}`);
      // Charts out of view skip redraws; a user scrolls to them.
      await chart.scrollIntoViewIfNeeded();
      await expect.poll(async () => Number(await chart.getAttribute('data-points')), { message: metric }).toBeGreaterThanOrEqual(2);
      const latest = Number(await page.getByTestId(`latest-${metric}`).textContent());
      expect(Number.isFinite(latest), `${metric} latest value`).toBe(true);
    }
    // Episodes are 100 env steps long, longer than this run, so success shows through evaluation (at iterations 2 and 3).
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 200_000 });
    await page.getByTestId('chart-eval-success_rate').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('chart-eval-success_rate')).toHaveAttribute('data-points', '2');
    // A success rate over 2 eval episodes is 0, 0.5 or 1; a missing point ('–'), NaN or a rate over the wrong count fails.
    const evalSuccess = Number(await page.getByTestId('latest-eval-success_rate').textContent());
    expect([0, 0.5, 1], 'eval success rate over 2 episodes').toContain(evalSuccess);

    const after = await page.evaluate(() => ({ ...(window as unknown as { __longTasks: LongTaskLog }).__longTasks }));
    writeFileSync('test-results/longtasks-journey1.json', JSON.stringify({ startup: before, training: after }, null, 2));
    console.log(`main-thread long tasks: startup ${before.count} (longest ${before.maxMs.toFixed(0)} ms); while training ${after.count} (longest ${after.maxMs.toFixed(0)} ms)`);

    // Hovering a chart's right end reads out its newest point: the header's value, at the newest env steps.
    const policyLoss = page.getByTestId('chart-losses-policy');
    await policyLoss.scrollIntoViewIfNeeded();
    const plot = (await policyLoss.locator('svg').boundingBox())!;
    await page.mouse.move(plot.x + plot.width - 12, plot.y + plot.height / 2);
    const readout = policyLoss.getByTestId('plot-readout');
    await expect(readout).toContainText(`raw ${await page.getByTestId('latest-losses-policy').textContent()}`);
    await expect(readout).toContainText('env steps');
    await page.mouse.move(0, 0);
    await expect(readout).toHaveCount(0);
    expect(foreign).toEqual([]);
  });
});
