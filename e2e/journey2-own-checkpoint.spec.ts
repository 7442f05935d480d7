import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { fixture, iteration, openStudio, waitForIteration } from './studio';

test.describe('journey 2: own checkpoint', () => {
  test('bad files show one sentence while training goes on; good files, a Gaussian policy\'s too, load and show their metadata', async ({ page }) => {
    await openStudio(page, { overrides: ['iterations=400', 'eval.every=0'] });
    await page.getByTestId('train').click();
    await waitForIteration(page, 1);
    const input = page.getByTestId('checkpoint-input');
    const notice = page.getByTestId('checkpoint-notice');

    const cases: [string, RegExp][] = [
      ['corrupt.flowtune', /header|checkpoint/i],
      ['lift-tiny.flowtune', /task.*lift|lift.*pick-cube|pick-cube.*lift/i],
      ['truncated.flowtune', /truncat|end of|bytes|length|range/i],
    ];
    for (const [file, message] of cases) {
      const before = await iteration(page);
      await input.setInputFiles(fixture(file));
      await expect(notice).toHaveClass(/notice-error/);
      await expect(notice).toHaveText(message);
      // One sentence, no stack trace.
      expect((await notice.textContent())!.split('\n')).toHaveLength(1);
      await expect(page.getByTestId('phase')).toHaveText('running');
      await waitForIteration(page, before + 1);
      // The selected model is untouched.
      await expect(page.getByTestId('meta-stage')).toHaveText('bc');
      await expect(page.getByTestId('meta-task')).toHaveText('pick-cube');
    }

    // A Gaussian policy's checkpoint is no bad file: the studio trains every family, so it becomes the next model.
    await input.setInputFiles(fixture('gaussian-pick-cube.flowtune'));
    await expect(notice).toHaveClass(/notice-ok/);
    await expect(notice).toContainText('gaussian-pick-cube.flowtune');
    await expect(page.getByTestId('phase')).toHaveText('running');

    // The good file arrives by drag and drop.
    const base64 = readFileSync(fixture('pick-cube-tiny.flowtune')).toString('base64');
    const dataTransfer = await page.evaluateHandle((encoded) => {
      const transfer = new DataTransfer();
      const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
      transfer.items.add(new File([bytes], 'pick-cube-tiny.flowtune'));
      return transfer;
    }, base64);
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });
    await expect(notice).toHaveClass(/notice-ok/);
    await expect(notice).toContainText('pick-cube-tiny.flowtune');
    await expect(page.getByTestId('meta-task')).toHaveText('pick-cube');
    await expect(page.getByTestId('meta-architecture')).toContainText('[32, 32]');
    await expect(page.getByTestId('meta-step')).toContainText('100');
    await expect(page.getByTestId('meta-eval')).toContainText('success_rate 0.25');
    await expect(page.getByTestId('phase')).toHaveText('running');
    await page.getByTestId('stop').click();
    await expect(page.getByTestId('phase')).toHaveText('stopped');
  });
});
