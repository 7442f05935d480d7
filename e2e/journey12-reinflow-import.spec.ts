import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { readReinflowCheckpoint } from '../src/core/checkpoint/peers/reinflow-import';
import { envSteps, exportedMetrics, iteration, openStudio, setConfigField, waitForIteration } from './studio';

/** ReinFlow's own hopper checkpoints (DESIGN.md §18), beside the project; never copied into it. */
const PEERS = path.resolve('../shared/fixtures/peers/reinflow-hopper');
const peerFile = (name: string) => path.join(PEERS, name);

/**
 * After preset locomotion-reinflow (16 envs × 128 decisions, minibatches of 512): 2 envs × 16 decisions, one
 * minibatch of 32, one epoch, two iterations, no evaluation. The minibatch shrinks first, so each step stays valid.
 */
const BUDGET: { group: string; key: string; value: string }[] = [
  { group: 'PPO', key: 'ppo.minibatch_size', value: '32' },
  { group: 'Run', key: 'num_envs', value: '2' },
  { group: 'Env', key: 'env.steps_per_iteration', value: '16' },
  { group: 'PPO', key: 'ppo.epochs', value: '1' },
  { group: 'Run', key: 'iterations', value: '2' },
  { group: 'Eval', key: 'eval.every', value: '0' },
];
const DECISIONS_PER_ITERATION = 2 * 16;

/** Drops files on the Model panel together, as a user drags a selection of them in. */
async function dropFiles(page: Page, files: string[]): Promise<void> {
  const payload = files.map((file) => ({ name: path.basename(file), encoded: readFileSync(file).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((items) => {
    const transfer = new DataTransfer();
    for (const { name, encoded } of items) transfer.items.add(new File([Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0))], name));
    return transfer;
  }, payload);
  await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });
}

test.describe('journey 12: a ReinFlow checkpoint dropped into the studio (DESIGN.md §18)', () => {
  test.skip(!existsSync(peerFile('state_40.pt')), `ReinFlow's fixtures are not at ${PEERS}`);

  test('state_40.pt with its normalization.npz opens as hopper\'s ReinFlow FlowMLP, fine-tunes two iterations, exports as ReinFlow\'s .pt, and finetuned_120.pt brings its noise net and critic', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    await openStudio(page, { backend: 'wasm' });
    const notice = page.getByTestId('checkpoint-notice');
    const notes = page.getByTestId('checkpoint-notes');
    const architecture = page.getByTestId('meta-architecture');
    const shippedArchitecture = await architecture.textContent();

    // A .pt alone is one sentence, and the model stays.
    await dropFiles(page, [peerFile('state_40.pt')]);
    await expect(notice).toHaveClass(/notice-error/);
    await expect(notice).toHaveText('state_40.pt needs its normalization.npz: drop them together (or their folder)');
    await expect(page.getByTestId('meta-task')).toHaveText('pick-cube');
    await expect(architecture).toHaveText(shippedArchitecture!);

    // With its normalization.npz, on pick-cube: its 11 observations and 3 actions are hopper's, and the panel offers the switch.
    await dropFiles(page, [peerFile('state_40.pt'), peerFile('normalization.npz')]);
    await expect(notice).toHaveClass(/notice-ok/);
    await expect(notice).toContainText('hopper');
    await page.getByTestId('checkpoint-switch-task').click();
    await expect(page.getByTestId('task')).toHaveValue('hopper');
    await expect(notice).toHaveText('state_40.pt loaded: the next run starts from it');
    await expect(page.getByTestId('meta-source')).toHaveText('state_40.pt');
    await expect(page.getByTestId('meta-task')).toHaveText('hopper');
    await expect(architecture).toHaveText('state · ReinFlow FlowMLP [512, 512, 512], ReLU · H 4 · K 4 · obs 11 · act 3');
    await expect(page.getByTestId('meta-stage')).toHaveText('bc');
    // What was read and what was assumed, one short line each.
    await expect(notes.locator('li').first()).toHaveText('state_40.pt: read with normalization.npz');
    await expect(notes).toContainText("no Hydra config found: using ReinFlow's Gym hopper settings");
    await expect(notes).toContainText('its EMA weights');
    await expect(notes).toContainText('the noise net and critic start fresh');
    await expect(notes).toContainText('state_40.pt fits task hopper: 11 observations, 3 actions, chunks of 4, K = 4');
    await page.getByTestId('checkpoint-panel').screenshot({ path: testInfo.outputPath('model-panel-reinflow.png') });

    // ReinFlow's own fine-tune settings when the preset menu offers them, shrunk to a tiny budget.
    await page.getByTestId('tab-config').click();
    const preset = page.getByTestId('config-preset');
    await preset.selectOption('locomotion-reinflow');
    await expect(preset).toHaveValue('locomotion-reinflow');
    await expect(page.getByTestId('config-notice')).toHaveCount(0);
    // The checkpoint's architecture stays whatever the preset says.
    await expect(architecture).toContainText('ReinFlow FlowMLP [512, 512, 512]');
    for (const { group, key, value } of BUDGET) await setConfigField(page, group, key, value);

    await page.getByTestId('tab-charts').click();
    await page.getByTestId('train').click();
    await waitForIteration(page, 2, 240_000);
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 240_000 });
    expect(await iteration(page)).toBe(2);
    // 2 envs × 16 decisions of ReinFlow's 4-action chunks, less the steps a chunk loses when the hopper falls.
    const steps = await envSteps(page);
    expect(steps).toBeGreaterThan(2 * DECISIONS_PER_ITERATION);
    expect(steps).toBeLessThanOrEqual(2 * DECISIONS_PER_ITERATION * 4);
    await expect(page.getByTestId('record-count')).toHaveText('2 iterations logged');
    const records = await exportedMetrics(page);
    expect(records).toHaveLength(2);
    for (const record of records) {
      for (const key of ['losses/policy', 'losses/value']) expect(Number.isFinite(record[key]), `${key} at iteration ${record.iteration}`).toBe(true);
      for (const [key, value] of Object.entries(record)) if (typeof value === 'number') expect(Number.isFinite(value), key).toBe(true);
    }
    expect(records.map((record) => record['progress/env_steps'])).toEqual([expect.any(Number), steps]);

    // Export → ReinFlow .pt: the fine-tuned policy as ReinFlow's own files, which our reader takes back in PPOFlow's layout.
    await expect(page.getByTestId('export-peer')).toBeEnabled();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-peer').click()]);
    expect(download.suggestedFilename()).toBe('hopper-ppo-it2.reinflow.zip');
    const entries = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    expect(Object.keys(entries).sort()).toEqual(['hopper-ppo-it2.pt', 'normalization.npz']);
    const back = readReinflowCheckpoint({
      checkpoint: { name: 'hopper-ppo-it2.pt', bytes: entries['hopper-ppo-it2.pt'] },
      normalization: { name: 'normalization.npz', bytes: entries['normalization.npz'] },
    });
    expect(back.stage).toBe('ppo');
    expect(back.withHeads).toBe(true);
    expect(back.architecture).toMatchObject({ velocityNet: 'reflow_mlp', velocityHidden: [512, 512, 512], obsDim: 11, actionDim: 3, horizon: 4 });

    // The fine-tuned file waits for Reset (the run keeps its model), and says its noise net and critic came with it.
    await dropFiles(page, [peerFile('finetuned_120.pt'), peerFile('normalization.npz')]);
    await expect(notice).toHaveText('finetuned_120.pt is checked and waits for Reset: the current run goes on with its own model');
    await expect(notes).toContainText('ReinFlow PPOFlow fine-tuned at iteration 120');
    await expect(notes).toContainText(/its fine-tuned net, exploration-noise net \(std [\d.]+-[\d.]+\) and critic/);
    await expect(page.getByTestId('model-next')).toContainText('finetuned_120.pt (ppo, iteration 120)');
    await expect(page.getByTestId('meta-source')).toHaveText('state_40.pt');
    await page.getByTestId('checkpoint-panel').screenshot({ path: testInfo.outputPath('model-panel-reinflow-finetuned.png') });
  });
});
