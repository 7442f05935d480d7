import { expect, test } from '@playwright/test';

test.describe('first page', () => {
  test('loads cross-origin isolated and starts the trainer worker', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText('Flowtune Studio')).toBeVisible();
    expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
    await expect(page.getByTestId('backend')).toHaveText(/^(webgpu|wasm|cpu)$/);
  });

  test('with ?backend=webgpu the worker runs webgpu on SwiftShader and samples finite actions', async ({ page }) => {
    await page.goto('/?backend=webgpu');
    await expect(page.getByTestId('backend')).toHaveText('webgpu');
    await expect(page.getByTestId('adapter')).toContainText(/swiftshader/i);
    await expect(page.getByTestId('software-adapter')).toBeVisible();
    await expect(page.getByTestId('probe')).toHaveAttribute('data-shape', '2,4,4');
    await expect(page.getByTestId('probe')).toHaveAttribute('data-finite', 'true');
    await expect(page.getByTestId('probe-summary')).toHaveText('✓ webgpu works: a small test policy sampled 2 action chunks of 4 steps × 4 values, all finite.');
  });

  test('without a forced backend, a software adapter runs on wasm', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('backend')).toHaveText('wasm');
    await expect(page.getByTestId('probe')).toHaveAttribute('data-finite', 'true');
  });
});
