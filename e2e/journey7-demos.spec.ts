import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
import { routeShippedCheckpoint, tinyHash, waitForIteration } from './studio';

/**
 * Opens the studio on reach with the tiny preset's policy: the shipped reach checkpoint is held
 * back, so the model is fresh and stage 1 trains the tiny architecture of the config.
 */
async function openTinyReach(page: Page): Promise<void> {
  await routeShippedCheckpoint(page);
  await page.route('**/checkpoints/reach-bc.flowtune', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(`/#${tinyHash(['task=reach'])}`);
  await expect(page.getByTestId('backend')).toHaveText(/^(webgpu|wasm|cpu)$/);
  await expect(page.getByTestId('task')).toHaveValue('reach');
  await expect(page.getByTestId('model-fresh')).toBeVisible();
}

async function downloadBytes(page: Page, button: Locator): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { download, bytes: readFileSync((await download.path())!) };
}

/** The safetensors layout both file kinds use: an 8-byte little-endian header length, then a JSON header. */
function safetensorsHeader(bytes: Buffer): string {
  expect(bytes.length).toBeGreaterThan(8);
  const headerLength = Number(bytes.readBigUInt64LE(0));
  expect(8 + headerLength).toBeLessThanOrEqual(bytes.length);
  expect(String.fromCharCode(bytes[8])).toBe('{');
  return bytes.subarray(8, 8 + headerLength).toString('utf8');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function fillFields(page: Page, values: Record<string, string>): Promise<void> {
  for (const [testId, value] of Object.entries(values)) await page.getByTestId(testId).fill(value);
}

async function chartPoints(chart: Locator): Promise<number> {
  return Number(await chart.getAttribute('data-points'));
}

/** The whole tab in one picture: the viewport grows to fit it, then goes back. */
async function screenshotTab(page: Page, path: string): Promise<void> {
  const viewport = page.viewportSize()!;
  const tabHeight = await page.getByTestId('demos-panel').evaluate((panel) => panel.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, tabHeight + 260) });
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}

test.describe('journey 7: from demos', () => {
  test('record demos, pretrain BC, run stage 2 with a pause, fine-tune with PPO; demos export and reload; a corrupt file changes nothing', async ({ page }, testInfo) => {
    test.setTimeout(600_000);
    await openTinyReach(page);
    await page.getByTestId('tab-demos').click();
    const status = page.getByTestId('recipe-status');
    const summary = page.getByTestId('demos-summary');
    await expect(page.getByTestId('pretrain-start')).toBeDisabled();
    await expect(page.getByTestId('offline-start')).toBeDisabled();
    await expect(status).toHaveText(/Nothing run yet/);
    await screenshotTab(page, testInfo.outputPath('demos-tab-empty.png'));

    // A form value the worker would refuse never reaches it.
    await fillFields(page, { 'demos-episodes': '0' });
    await page.getByTestId('demos-record').click();
    await expect(page.getByTestId('demos-notice')).toContainText('Episodes must be a whole number ≥ 1');

    // Record 4 expert episodes of reach with a little noise.
    await fillFields(page, { 'demos-episodes': '4', 'demos-seed': '3' });
    await page.getByTestId('demos-noise').fill('0.1');
    await expect(page.getByTestId('demos-noise-value')).toHaveText('0.10');
    await page.getByTestId('demos-record').click();
    await expect(page.getByTestId('demos-notice')).toHaveCount(0);
    await expect(page.getByTestId('demos-progress')).toContainText('4 / 4 episodes', { timeout: 120_000 });
    await expect(status).toHaveAttribute('data-phase', 'done');
    await expect(summary).toHaveText(/^recorded · 4 episodes · [\d,]+ steps · [0-4] succeeded · noise 0\.1$/);
    const [, recordedCounts] = /^recorded · (4 episodes · [\d,]+ steps · \d succeeded)/.exec((await summary.textContent())!)!;

    // Export .demos, and load the file back through the picker: the same demos, now named by the file.
    const demos = await downloadBytes(page, page.getByTestId('demos-export'));
    const demosName = demos.download.suggestedFilename();
    expect(demosName).toMatch(/\.demos$/);
    expect(safetensorsHeader(demos.bytes)).toContain('flowtune_demos');
    const demosPath = testInfo.outputPath(demosName);
    writeFileSync(demosPath, demos.bytes);
    await page.getByTestId('demos-file').setInputFiles(demosPath);
    await expect(summary).toHaveText(new RegExp(`^${escapeRegExp(demosName)} · ${recordedCounts}( · noise 0\\.1)?$`));
    await expect(page.getByTestId('demos-notice')).toHaveCount(0);

    // Stage 1: 30 steps of BC with an evaluation every 15 steps over 2 episodes.
    await expect(page.getByTestId('pretrain-start')).toBeEnabled();
    await fillFields(page, { 'pretrain-steps': '30', 'pretrain-batch': '32', 'pretrain-eval-every': '15', 'pretrain-eval-episodes': '2' });
    await page.getByTestId('pretrain-start').click();
    await expect(status).toHaveAttribute('data-stage', 'pretrain');
    await screenshotTab(page, testInfo.outputPath('demos-tab-pretraining.png'));
    await expect(page.getByTestId('pretrain-progress')).toContainText('30 / 30 steps', { timeout: 240_000 });
    await expect(status).toHaveAttribute('data-phase', 'done');
    await expect.poll(() => chartPoints(page.getByTestId('pretrain-loss-chart'))).toBeGreaterThan(0);
    await expect.poll(() => chartPoints(page.getByTestId('pretrain-eval-chart'))).toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId('recipe-ready')).toHaveText('The BC policy is now the model: press Train to fine-tune it with PPO.');
    await expect(page.getByTestId('meta-stage')).toHaveText('bc');
    await expect(page.getByTestId('meta-task')).toHaveText('reach');
    await expect(page.getByTestId('meta-architecture')).toContainText('[32, 32]');
    await screenshotTab(page, testInfo.outputPath('demos-tab-pretrained.png'));

    // Export .flowtune of the finished stage.
    const policy = await downloadBytes(page, page.getByTestId('recipe-export'));
    expect(policy.download.suggestedFilename()).toMatch(/\.flowtune$/);
    safetensorsHeader(policy.bytes);

    // Stage 2 from the BC policy: 2 rollouts, 20 steps, one eval episode at the end.
    await expect(page.getByTestId('offline-start')).toBeEnabled();
    await fillFields(page, { 'offline-rollouts': '2', 'offline-steps': '20', 'offline-eval-every': '0', 'offline-eval-episodes': '1' });
    await page.getByTestId('offline-start').click();
    await expect(status).toHaveAttribute('data-stage', 'offline');
    // Paused while it rolls out or trains, it parks after a gradient step: its policy so far exports, nothing new starts, Resume finishes it.
    await page.getByTestId('recipe-pause').click();
    await expect(status).toHaveAttribute('data-phase', 'paused');
    await expect(status).toContainText('paused at step');
    await expect(page.getByTestId('recipe-ready')).toHaveCount(0);
    await expect(page.getByTestId('pretrain-start')).toBeDisabled();
    const parked = await downloadBytes(page, page.getByTestId('recipe-export'));
    expect(parked.download.suggestedFilename()).toMatch(/\.flowtune$/);
    safetensorsHeader(parked.bytes);
    await page.getByTestId('recipe-resume').click();
    await expect(page.getByTestId('offline-progress')).toContainText('20 / 20 steps', { timeout: 240_000 });
    await expect(status).toHaveAttribute('data-phase', 'done');
    await expect.poll(() => chartPoints(page.getByTestId('offline-loss-chart'))).toBeGreaterThan(0);
    await expect(page.getByTestId('meta-stage')).toHaveText('offline');
    await expect(page.getByTestId('recipe-ready')).toContainText('stage-2');
    await screenshotTab(page, testInfo.outputPath('demos-tab-offline.png'));

    // Stage 3: one PPO iteration from the stage-2 policy.
    await page.getByTestId('step').click();
    expect(await waitForIteration(page, 1)).toBe(1);
    await expect(page.getByTestId('phase')).toHaveText('paused');

    // A corrupt .demos file dropped on the zone: one sentence naming it, and the held demos stay.
    const before = await summary.textContent();
    const corruptPath = testInfo.outputPath('corrupt.demos');
    writeFileSync(corruptPath, randomBytes(2048));
    const transfer = await page.evaluateHandle((encoded) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0))], 'corrupt.demos'));
      return data;
    }, readFileSync(corruptPath).toString('base64'));
    await page.getByTestId('demos-drop').dispatchEvent('drop', { dataTransfer: transfer });
    const notice = page.getByTestId('demos-notice');
    await expect(notice).toHaveAttribute('role', 'alert');
    const sentence = (await notice.locator('span').textContent())!;
    expect(sentence).toContain('corrupt.demos');
    // Refused for what the file holds, not because something else was busy.
    expect(sentence).not.toMatch(/training|busy|paused/);
    expect(sentence.split('\n')).toHaveLength(1);
    expect(sentence.match(/\.\s/g) ?? []).toHaveLength(0);
    await expect(summary).toHaveText(before!);
    await page.getByTestId('demos-section').screenshot({ path: testInfo.outputPath('demos-section-refused.png') });
  });
});
