import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openStudio } from './studio';

/** The dataset layouts researchers hold, made with h5py and numpy beside the project (never copied in). */
const DATASETS = path.resolve('../shared/fixtures/datasets');
const dataset = (name: string) => path.join(DATASETS, name);

test.describe('journey 7: a dataset from another project dropped on the demos tab (DESIGN.md §18)', () => {
  test.skip(!existsSync(dataset('d4rl-hopper-tiny.hdf5')), `the dataset fixtures are not at ${DATASETS}`);

  test('D4RL and ReinFlow files become hopper demos; a train.npz alone or data of other sizes is one sentence and the held demos stay', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    await openStudio(page, { backend: 'wasm', task: 'hopper', overrides: ['task=hopper'] });
    await expect(page.getByTestId('task')).toHaveValue('hopper');
    const phase = await page.getByTestId('phase').textContent();
    await page.getByTestId('tab-demos').click();
    const summary = page.getByTestId('demos-summary');
    const status = page.getByTestId('recipe-status');
    const notice = page.getByTestId('demos-notice');

    await page.getByTestId('demos-file').setInputFiles(dataset('d4rl-hopper-tiny.hdf5'));
    await expect(summary).toHaveText('d4rl-hopper-tiny.hdf5 · 3 episodes · 1,449 steps · 0 succeeded');
    await expect(status).toContainText('converted d4rl-hopper-tiny.hdf5 (D4RL) for hopper: 3 episodes, 1449 steps; 2 terminated, 1 truncated');
    await expect(notice).toHaveCount(0);
    await expect(page.getByTestId('pretrain-start')).toBeEnabled();

    await page.getByTestId('demos-file').setInputFiles([dataset('reinflow-hopper-train.npz'), dataset('reinflow-hopper-normalization.npz')]);
    await expect(summary).toHaveText('reinflow-hopper-train.npz · 3 episodes · 1,449 steps · 0 succeeded');
    await expect(status).toContainText("with reinflow-hopper-normalization.npz) for hopper: 3 episodes, 1449 steps; 2 terminated, 1 truncated");

    // Refusals: one sentence each, and what is held (and the run) stays as it was.
    await page.getByTestId('demos-file').setInputFiles(dataset('reinflow-hopper-train.npz'));
    await expect(notice).toHaveAttribute('role', 'alert');
    await expect(notice.locator('span')).toHaveText('reinflow-hopper-train.npz holds states and actions scaled to [-1, 1]: give the normalization.npz written beside it (normalization=FILE.npz, or drop both files together).');
    await expect(summary).toHaveText('reinflow-hopper-train.npz · 3 episodes · 1,449 steps · 0 succeeded');

    await page.getByTestId('dataset-obs-keys').fill('object, robot0_eef_pos, robot0_eef_quat, robot0_gripper_qpos');
    await page.getByTestId('dataset-filter').fill('train');
    await page.getByTestId('demos-file').setInputFiles(dataset('robomimic-lift-lowdim-tiny.hdf5'));
    await expect(notice.locator('span')).toHaveText("robomimic-lift-lowdim-tiny.hdf5's observations (obs_keys=object,robot0_eef_pos,robot0_eef_quat,robot0_gripper_qpos) hold 19 values but hopper's state observation holds 11.");
    await expect(summary).toHaveText('reinflow-hopper-train.npz · 3 episodes · 1,449 steps · 0 succeeded');
    await page.getByTestId('tab-demos').click();
    await expect(page.getByTestId('phase')).toHaveText(phase!);
    await page.getByTestId('demos-section').screenshot({ path: testInfo.outputPath('demos-section-dataset.png') });
  });
});
