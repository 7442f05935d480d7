import { expect, test } from '@playwright/test';
import { openStudio } from './studio';

test.describe('config presets and warnings', () => {
  test('a preset sets its fields and keeps the task; keys that do nothing are flagged under the fields', async ({ page }, testInfo) => {
    await openStudio(page, { task: 'lift', overrides: ['task=lift'] });
    await page.getByTestId('tab-config').click();
    const preset = page.getByTestId('config-preset');
    await expect(preset.locator('option', { hasText: 'reinflow-steps-16: More denoising steps (K = 16).' })).toHaveCount(1);
    // The tiny base sets env.num_points with state observations.
    const warnings = page.getByTestId('config-warnings');
    await expect(warnings).toContainText('env.num_points=64 does nothing with env.obs_type=state');

    await preset.selectOption('reinflow-steps-16');
    await expect(page).toHaveURL(/policy\.denoise_steps=16/);
    await expect(page).toHaveURL(/task=lift/);
    await expect(preset).toHaveValue('reinflow-steps-16');
    await page.getByText('Policy', { exact: true }).click();
    await expect(page.getByTestId('config-policy-denoise_steps')).toHaveValue('16');
    await expect(page.getByTestId('config-task')).toHaveValue('lift');
    // The loaded lift checkpoint fixes the architecture: the preset keeps it rather than the defaults' 256s.
    await expect(page.getByTestId('config-policy-hidden')).toHaveValue('128,128,128');
    await expect(warnings).toHaveCount(0);

    // The preset's entropy bonus needs the learned std of noise.method=noise.
    await page.getByText('Noise', { exact: true }).click();
    await page.getByTestId('config-noise-method').selectOption('sde');
    await expect(warnings).toContainText('ppo.entropy_coef=0.01 does nothing with noise.method=sde');
    await expect(preset).toHaveValue('');
    await warnings.scrollIntoViewIfNeeded();
    const shot = testInfo.outputPath('config-tab.png');
    await page.screenshot({ path: shot });
    await testInfo.attach('config tab', { path: shot, contentType: 'image/png' });
  });
});
