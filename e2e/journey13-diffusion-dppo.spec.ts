import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import * as ort from 'onnxruntime-node';
import { exportOnnxChecked, iteration, routeShippedCheckpoint, setConfigField, tinyHash } from './studio';

/**
 * After preset dppo (16 envs × 128 decisions, T = 20 with the last 10 fine-tuned, 5 epochs of 5120 samples): a tiny ε net,
 * T = 6 with the last 3 fine-tuned, 2 envs × 8 decisions (48 denoising-step samples, minibatches of 16), one epoch, two
 * iterations with an evaluation at the second. The minibatch shrinks first and K' before T, and the iterations before the env-step budget goes, so each step stays valid.
 */
const BUDGET: { group: string; key: string; value: string }[] = [
  { group: 'PPO', key: 'ppo.minibatch_size', value: '16' },
  { group: 'DPPO', key: 'dppo.ft_denoising_steps', value: '3' },
  { group: 'Policy', key: 'policy.denoise_steps', value: '6' },
  { group: 'Policy', key: 'policy.hidden', value: '32,32' },
  { group: 'Policy', key: 'policy.encoder_hidden', value: '32' },
  { group: 'Policy', key: 'policy.value_hidden', value: '32' },
  { group: 'Run', key: 'num_envs', value: '2' },
  { group: 'Env', key: 'env.steps_per_iteration', value: '8' },
  { group: 'Env', key: 'env.workers', value: '1' },
  { group: 'PPO', key: 'ppo.epochs', value: '1' },
  { group: 'Run', key: 'iterations', value: '2' },
  { group: 'Run', key: 'total_env_steps', value: '0' },
  { group: 'Run', key: 'eval_episodes', value: '2' },
  { group: 'Eval', key: 'eval.every', value: '2' },
];

/** The chain view's last sample, as test builds expose it. */
interface ExposedChains {
  family: string;
  steps: number;
  timesteps: number[];
  ftSteps: number;
  minSamplingStd: number;
  model: string;
  stds: number[];
  chains: number[];
  odeChain: number[];
}

const exposedChains = (page: Page) => page.evaluate(() => (window as unknown as { __flowtuneChains: ExposedChains }).__flowtuneChains);

/** Reach with no shipped checkpoint, so Train and the demos tab start from a fresh policy of the config. */
async function openFreshReach(page: Page): Promise<void> {
  await routeShippedCheckpoint(page);
  await page.route('**/checkpoints/reach-bc.flowtune', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(`/?backend=wasm#${tinyHash(['task=reach'])}`);
  await expect(page.getByTestId('backend')).toHaveText('wasm');
  await expect(page.getByTestId('task')).toHaveValue('reach');
  await expect(page.getByTestId('model-fresh')).toBeVisible();
}

test.describe('journey 13: a diffusion policy from demos, fine-tuned with DPPO (DESIGN.md §16, §17)', () => {
  test('preset dppo, record demos, pretrain an ε net, fine-tune two iterations, draw its chains, move the std floor, export ONNX', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    await openFreshReach(page);

    // The preset menu offers DPPO's two presets; dppo makes the config a diffusion policy's.
    await page.getByTestId('tab-config').click();
    const preset = page.getByTestId('config-preset');
    await expect(preset.locator('option[value="dppo-manipulation"]')).toHaveCount(1);
    await preset.selectOption('dppo');
    await expect(preset).toHaveValue('dppo');
    await expect(page.getByTestId('config-policy-kind')).toHaveValue('diffusion');
    for (const { group, key, value } of BUDGET) await setConfigField(page, group, key, value);
    // The exploration panel is DPPO's std floor, at the preset's 0.1.
    await expect(page.getByTestId('noise-panel')).toHaveAttribute('data-family', 'diffusion');
    await expect(page.getByTestId('noise-min_sampling_std-value')).toHaveText('0.1');

    // Stage 1 makes the config's family: a diffusion policy of T = 6 steps; stage 2 is for flow policies only.
    await page.getByTestId('tab-demos').click();
    await expect(page.getByTestId('pretrain-kind')).toHaveValue('diffusion');
    await expect(page.getByTestId('pretrain-denoise-steps')).toHaveValue('6');
    await expect(page.getByTestId('offline-blocked')).toContainText('Stage 2 fine-tunes flow policies');
    await page.getByTestId('demos-episodes').fill('3');
    await page.getByTestId('demos-record').click();
    await expect(page.getByTestId('demos-progress')).toContainText('3 / 3 episodes', { timeout: 120_000 });
    await page.getByTestId('pretrain-steps').fill('30');
    await page.getByTestId('pretrain-batch').fill('32');
    await page.getByTestId('pretrain-eval-every').fill('0');
    await page.getByTestId('pretrain-eval-episodes').fill('1');
    await page.getByTestId('pretrain-start').click();
    await expect(page.getByTestId('pretrain-progress')).toContainText('30 / 30 steps', { timeout: 120_000 });
    await expect(page.getByTestId('recipe-status')).toHaveAttribute('data-phase', 'done');
    await expect(page.getByTestId('meta-stage')).toHaveText('bc');
    await expect(page.getByTestId('config-notice')).toHaveCount(0);

    // Stage 3: two DPPO iterations of the BC policy, the second with an evaluation.
    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 180_000 });
    expect(await iteration(page)).toBe(2);
    await expect(page.getByTestId('run-error')).toHaveCount(0);
    // The evaluation at iteration 2 ran the deterministic chain: its success rate is charted.
    await page.getByTestId('tab-charts').click();
    await expect(page.getByTestId('record-count')).toHaveText('2 iterations logged');
    const evalChart = page.getByTestId('chart-eval-success_rate');
    await evalChart.scrollIntoViewIfNeeded();
    await expect(evalChart).toHaveAttribute('data-points', '1');
    // A rate over the evaluation's episodes: a finite number in [0, 1] (NaN or a stray value fails).
    const rate = Number(await page.getByTestId('latest-eval-success_rate').textContent());
    expect(rate >= 0 && rate <= 1, `success rate ${rate}`).toBe(true);

    // The chain view draws the diffusion chain: x_t over t = 5 … 0 and the action, bands, the fine-tuned steps shaded, the red DDPM mean chain.
    await page.getByTestId('tab-inspect').click();
    const view = page.getByTestId('chain-view');
    await expect(view).toHaveAttribute('data-family', 'diffusion');
    await expect(view).toHaveAttribute('data-pending', '0');
    await expect(page.getByTestId('chain-error')).toHaveCount(0);
    await expect(page.getByTestId('chain-meta')).toContainText("DDPM T 6 · K' 3 fine-tuned · std floor 0.1");
    const firstDim = page.getByTestId('chain-dim-0');
    await expect(firstDim.locator('path.chain-ode')).toHaveCount(1);
    expect(await firstDim.locator('path.chain-line').count()).toBe(16);
    // One band mark per chain and step: 16 × 6.
    expect(await firstDim.locator('.chain-band circle').count()).toBe(16 * 6);
    await expect(firstDim.locator('.chain-fine-tuned rect')).toHaveCount(1);
    await expect(firstDim.locator('text', { hasText: /^a$/ })).toHaveCount(1);
    const drawn = await exposedChains(page);
    expect(drawn).toMatchObject({ family: 'diffusion', steps: 6, timesteps: [5, 4, 3, 2, 1, 0], ftSteps: 3, minSamplingStd: 0.1, model: 'run' });
    expect(drawn.odeChain.every(Number.isFinite)).toBe(true);
    await view.screenshot({ path: testInfo.outputPath('chain-view-diffusion.png') });
    // The same chains' final chunks as TCP paths (reach's arm has an end effector to move).
    await expect(page.getByTestId('chain-paths')).toHaveAttribute('data-chains', '16');
    await expect(page.getByTestId('chain-paths-flow-only')).toHaveCount(0);

    // The std floor slider reaches the run and the chain view re-samples under it: every step's std is now at least 0.3.
    await page.getByTestId('noise-min_sampling_std').fill('0.3');
    await expect(page.getByTestId('noise-min_sampling_std-value')).toHaveText('0.3');
    await expect(view).toHaveAttribute('data-floor', '0.3');
    await expect(page.getByTestId('noise-problem')).toHaveText('');
    const floored = await exposedChains(page);
    expect(Math.min(...floored.stds)).toBeGreaterThanOrEqual(0.3 - 1e-6);
    await page.getByTestId('noise-panel').screenshot({ path: testInfo.outputPath('noise-panel-diffusion.png') });

    // Export → .flowtune and ONNX: onnxruntime-web runs the DDPM mean chain as the live policy does, and the file runs in onnxruntime-node.
    const [flowtune] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-flowtune').click()]);
    expect(readFileSync((await flowtune.path())!).length).toBeGreaterThan(4096);
    const exported = await exportOnnxChecked(page);
    expect(exported.name).toBe('reach-ppo-it2.onnx');
    expect(exported.text).toMatch(/^onnxruntime-web matches the live policy: max \|Δ\| .* on env 0's newest rollout observation$/);
    expect(exported.maxAbsDifference).toBeLessThan(1e-4);
    expect(exported.bytes.length).toBeGreaterThan(4096);
    expect(exported.bytes[0]).toBe(0x08);
    const session = await ort.InferenceSession.create(exported.bytes);
    try {
      expect(session.inputNames).toEqual(['obs', 'x0']);
      expect(session.outputNames).toEqual(['actions']);
    } finally {
      await session.release();
    }
  });
});
