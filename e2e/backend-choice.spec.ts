/**
 * The backend choice's wiring (DESIGN.md §7): a forced backend is the one in use and is not
 * timed; otherwise the trainer times each backend on the selected model and the badge shows both
 * figures and the winner. The rule itself is unit-tested in core/backend; here test builds'
 * stubbed timings decide the winner, so the outcome does not hang on the machine's speed.
 */
import { expect, test, type Page } from '@playwright/test';
import { openStudio, waitForIteration } from './studio';

async function expectBadge(page: Page, expected: { backend: string; choice: string; speeds: string; inUse: string; others: string[] }): Promise<void> {
  const badge = page.getByTestId('backend-badge');
  await expect(badge).toHaveAttribute('data-choice', expected.choice);
  await expect(page.getByTestId('backend-timing')).toHaveCount(0);
  await expect(page.getByTestId('backend')).toHaveText(expected.backend);
  await expect(page.getByTestId('status-backend')).toHaveText(expected.backend);
  await expect(page.getByTestId('backend-speeds')).toHaveText(` · ${expected.speeds}`);
  await expect(page.getByTestId(`speed-${expected.inUse}`)).toHaveAttribute('data-in-use', 'true');
  for (const other of expected.others) await expect(page.getByTestId(`speed-${other}`)).toHaveAttribute('data-in-use', 'false');
}

test.describe('backend choice', () => {
  for (const backend of ['wasm', 'webgpu'] as const) {
    test(`?backend=${backend} runs ${backend}, says it was forced, and times nothing`, async ({ page }) => {
      // Stubbed timings would make webgpu or wasm win; a forced backend ignores them.
      await openStudio(page, { backend, query: { stub_backend_timings: backend === 'wasm' ? 'webgpu:1/1,wasm:9/9' : 'webgpu:9/9,wasm:1/1' } });
      await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-choice', 'forced');
      await expect(page.getByTestId('backend-forced')).toBeVisible();
      await expect(page.getByTestId('backend')).toHaveText(backend);
      await expect(page.getByTestId('status-backend')).toHaveText(backend);
      // The probe runs after the model is selected, when a timing would have switched.
      await expect(page.getByTestId('probe')).toHaveAttribute('data-finite', 'true');
      await expect(page.getByTestId('backend')).toHaveText(backend);
      await expect(page.getByTestId('backend-speeds')).toHaveCount(0);
      await expect(page.getByTestId('backend-timing')).toHaveCount(0);
      await page.getByTestId('backend-badge').screenshot({ path: `test-results/backend-badge-forced-${backend}.png` });
    });
  }

  // The tiny preset: 4 envs × 8 decisions = 32 samples per iteration; minibatch 16 → 2 per epoch × 2 epochs = 4 gradient steps.
  test('with stubbed timings where webgpu is faster, the trainer switches to webgpu and shows both figures', async ({ page }) => {
    // webgpu: 8 × 1 ms + 4 × 2 ms = 16 ms → 32 / 0.016 = 2000 samples/s; wasm: 8 × 10 + 4 × 20 = 160 ms → 200.
    await openStudio(page, { query: { stub_backend_timings: 'webgpu:1/2,wasm:10/20' } });
    await expectBadge(page, { backend: 'webgpu', choice: 'measured', speeds: 'webgpu 2.0k samples/s · wasm 200', inUse: 'webgpu', others: ['wasm'] });
    await expect(page.getByTestId('backend-stubbed')).toBeVisible();
    await page.getByTestId('backend-badge').screenshot({ path: 'test-results/backend-badge-webgpu-wins.png' });
  });

  test('with stubbed timings where wasm has the shorter iteration, wasm stays though webgpu samples faster', async ({ page }) => {
    // webgpu: 8 × 0.5 ms + 4 × 40 ms = 164 ms → 195 samples/s; wasm: 8 × 5 + 4 × 5 = 60 ms → 533.
    await openStudio(page, { query: { stub_backend_timings: 'webgpu:0.5/40,wasm:5/5' } });
    await expectBadge(page, { backend: 'wasm', choice: 'measured', speeds: 'wasm 533 samples/s · webgpu 195', inUse: 'wasm', others: ['webgpu'] });
    await page.getByTestId('backend-badge').screenshot({ path: 'test-results/backend-badge-wasm-wins.png' });
  });

  test('without stubs, the trainer times both backends on the tiny model and shows both figures, the one in use first', async ({ page }) => {
    await openStudio(page);
    const badge = page.getByTestId('backend-badge');
    await expect(badge).toHaveAttribute('data-choice', 'measured', { timeout: 120_000 });
    await expect(page.getByTestId('backend-timing')).toHaveCount(0);
    const inUse = (await page.getByTestId('backend').textContent()) ?? '';
    const other = inUse === 'wasm' ? 'webgpu' : 'wasm';
    await expect(page.getByTestId('backend-speeds')).toHaveText(new RegExp(`^ · ${inUse} [0-9.]+[kM]? samples/s · ${other} <?[0-9.]+[kM]?$`));
    await expect(page.getByTestId(`speed-${inUse}`)).toHaveAttribute('data-in-use', 'true');
    console.log(`badge: ${await badge.textContent()}`);
    await badge.screenshot({ path: 'test-results/backend-badge-measured.png' });
  });

  test('a change of batch sizes times the backends again at the new sizes', async ({ page }) => {
    await openStudio(page, { query: { stub_backend_timings: 'webgpu:1/2,wasm:10/20' } });
    await expectBadge(page, { backend: 'webgpu', choice: 'measured', speeds: 'webgpu 2.0k samples/s · wasm 200', inUse: 'webgpu', others: ['wasm'] });
    // num_envs 8: 8 × 8 = 64 samples, 4 minibatches × 2 epochs = 8 steps. webgpu 8 × 1 + 8 × 2 = 24 ms → 2667; wasm 8 × 10 + 8 × 20 = 240 ms → 267.
    await page.evaluate(() => {
      window.location.hash = window.location.hash.replace(/num_envs=\d+/, 'num_envs=8');
    });
    await expect(page.getByTestId('backend-speeds')).toHaveText(' · webgpu 2.7k samples/s · wasm 267');
    await expect(page.getByTestId('backend-badge')).toHaveAttribute('title', /^chosen by timing the selected model at 8 envs, minibatch 16: /);
  });

  test('a resumed run goes back to the backend it was saved on, though a new timing favours another', async ({ page }) => {
    test.setTimeout(240_000);
    const overrides = ['iterations=6', 'eval.every=0', 'checkpoint_every=2'];
    await openStudio(page, { overrides, query: { stub_backend_timings: 'webgpu:1/2,wasm:10/20' } });
    await expectBadge(page, { backend: 'webgpu', choice: 'measured', speeds: 'webgpu 2.0k samples/s · wasm 200', inUse: 'webgpu', others: ['wasm'] });
    await page.getByTestId('train').click();
    await waitForIteration(page, 2);
    await page.getByTestId('pause').click();
    await expect(page.getByTestId('phase')).toHaveText('paused');

    // A new page whose timing favours wasm: the next new run would train on wasm.
    await openStudio(page, { overrides, query: { stub_backend_timings: 'webgpu:10/20,wasm:1/2' } });
    await expectBadge(page, { backend: 'wasm', choice: 'measured', speeds: 'wasm 2.0k samples/s · webgpu 200', inUse: 'wasm', others: ['webgpu'] });
    await expect(page.getByTestId('resume-banner')).toBeVisible();
    await page.getByTestId('resume').click();
    await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-choice', 'resumed');
    await expect(page.getByTestId('backend')).toHaveText('webgpu');
    await expect(page.getByTestId('status-backend')).toHaveText('webgpu');
    await expect(page.getByTestId('backend-resumed')).toBeVisible();
    await expect(page.getByTestId('backend-badge')).toHaveAttribute('title', /^the backend the resumed run was saved on, so it continues bit-exact/);
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 180_000 });
    await page.getByTestId('backend-badge').screenshot({ path: 'test-results/backend-badge-resumed.png' });
  });
});
