import { expect, test } from '@playwright/test';
import { iteration, openStudio, waitForIteration } from './studio';

test.describe('run controls and config', () => {
  test('pause holds the iteration, step runs exactly one, resume continues, reset asks and clears', async ({ page }) => {
    await openStudio(page, { overrides: ['iterations=400', 'eval.every=0'] });
    await page.getByTestId('train').click();
    await waitForIteration(page, 1);
    await page.getByTestId('pause').click();
    await expect(page.getByTestId('phase')).toHaveText('paused');
    const pausedAt = await iteration(page);
    // Between iterations, or at the next decision inside a rollout.
    await expect(page.getByTestId('status-message')).toHaveText(new RegExp(`^paused at iteration ${pausedAt}(, mid-(rollout|update))?$`));
    await page.waitForTimeout(2000);
    expect(await iteration(page)).toBe(pausedAt);
    await expect(page.getByTestId('record-count')).toHaveText(`${pausedAt} iterations logged`);

    await page.getByTestId('step').click();
    await expect(page.getByTestId('status-iteration')).toHaveText(String(pausedAt + 1));
    await expect(page.getByTestId('phase')).toHaveText('paused');
    await page.waitForTimeout(1500);
    expect(await iteration(page)).toBe(pausedAt + 1);

    await expect(page.getByTestId('train')).toHaveText('Resume');
    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText('running');
    await waitForIteration(page, pausedAt + 3);

    await page.getByTestId('reset').click();
    await page.getByTestId('reset-confirm').click();
    await expect(page.getByTestId('phase')).toHaveText('idle');
    await expect(page.getByTestId('status-iteration')).toHaveText('0');
    await expect(page.getByTestId('record-count')).toHaveText('0 iterations logged');
  });

  test('the config panel rejects an invalid value with its message and keeps the last valid config; the hash follows', async ({ page }) => {
    await openStudio(page, { overrides: ['iterations=400'] });
    await page.getByTestId('tab-config').click();
    const minibatch = page.getByTestId('config-ppo-minibatch_size');
    await page.getByText('PPO', { exact: true }).click();
    await minibatch.fill('7');
    await minibatch.press('Enter');
    await expect(page.getByTestId('config-notice')).toContainText('ppo.minibatch_size (7) must divide');
    await expect(minibatch).toHaveValue('16');
    await expect(page).toHaveURL(/ppo\.minibatch_size=16/);

    await minibatch.fill('8');
    await minibatch.press('Enter');
    await expect(page).toHaveURL(/ppo\.minibatch_size=8/);
    await expect(page.getByTestId('config-notice')).toHaveCount(0);
    await page.getByText(/Diff from defaults/).click();
    await expect(page.getByTestId('config-diff')).toContainText('ppo.minibatch_size');

    // The link reproduces the setup.
    await page.reload();
    await page.getByTestId('tab-config').click();
    await page.getByText('PPO', { exact: true }).click();
    await expect(page.getByTestId('config-ppo-minibatch_size')).toHaveValue('8');
  });

  test('an invalid URL hash is rejected with its message and the defaults stay', async ({ page }) => {
    await page.goto('/#ppo.clip_low=banana');
    await expect(page.getByTestId('config-notice')).toContainText('URL hash rejected');
    await expect(page.getByTestId('config-notice')).toContainText('ppo.clip_low');
    await page.getByTestId('tab-config').click();
    await page.getByText('PPO', { exact: true }).click();
    await expect(page.getByTestId('config-ppo-clip_low')).toHaveValue('0.2');
  });
});
