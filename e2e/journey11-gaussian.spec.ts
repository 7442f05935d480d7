import { expect, test, type Page } from '@playwright/test';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { envSteps, exportedMetrics, exportOnnxChecked, iteration, openStudio, reloadMidRunAndResume, setConfigField, tinyHash, waitForIteration } from './studio';

/** A tiny budget on top of preset gaussian-ppo: 1 env × 64 decisions, 2 minibatches of 32, one epoch, two iterations, eval at the second. */
const BUDGET: { group: string; key: string; value: string }[] = [
  { group: 'Run', key: 'iterations', value: '2' },
  { group: 'Run', key: 'eval_episodes', value: '2' },
  // 64 first: the preset's minibatch of 64 divides it, then the minibatch halves.
  { group: 'Env', key: 'env.steps_per_iteration', value: '64' },
  { group: 'PPO', key: 'ppo.minibatch_size', value: '32' },
  { group: 'PPO', key: 'ppo.epochs', value: '1' },
  { group: 'Eval', key: 'eval.every', value: '2' },
];
const STEPS_PER_ITERATION = 64;

test.describe('journey 11: the studio trains a Gaussian policy (DESIGN.md §16)', () => {
  test('hopper with preset gaussian-ppo trains 2 iterations from scratch, evaluates, and exports an ONNX graph that onnxruntime runs', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    await openStudio(page, { backend: 'wasm' });
    // Hopper preselects its shipped flow BC checkpoint ...
    await page.getByTestId('task').selectOption('hopper');
    await expect(page.getByTestId('meta-task')).toHaveText('hopper');

    await page.getByTestId('tab-config').click();
    const preset = page.getByTestId('config-preset');
    await expect(preset.locator('option[value="gaussian-ppo"]')).toHaveCount(1);
    await preset.selectOption('gaussian-ppo');
    await expect(preset).toHaveValue('gaussian-ppo');
    // ... which a Gaussian preset sets aside: Train starts from a fresh Gaussian policy, and the Model panel says why.
    await expect(page.getByTestId('model-fresh')).toContainText('policy.kind=gaussian: Train starts from a fresh Gaussian policy');
    await expect(page).toHaveURL(/policy\.kind=gaussian/);
    await expect(page).toHaveURL(/task=hopper/);
    for (const { group, key, value } of BUDGET) await setConfigField(page, group, key, value);

    // The flow-only views say what a Gaussian policy lacks instead of sampling chains.
    await expect(page.getByTestId('noise-panel-flow-only')).toHaveText(/^A Gaussian policy has no exploration-noise schedule/);

    await page.getByTestId('tab-charts').click();
    await page.getByTestId('train').click();
    await waitForIteration(page, 2, 240_000);
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 240_000 });
    expect(await iteration(page)).toBe(2);
    expect(await envSteps(page)).toBe(2 * STEPS_PER_ITERATION);

    // The charts hold both iterations; the evaluation at iteration 2 gives a finite return.
    await expect(page.getByTestId('record-count')).toHaveText('2 iterations logged');
    for (const metric of ['losses-policy', 'losses-value', 'losses-approx_kl']) {
      const chart = page.getByTestId(`chart-${metric}`);
      await chart.scrollIntoViewIfNeeded();
      await expect.poll(async () => Number(await chart.getAttribute('data-points')), { message: metric }).toBe(2);
    }
    const evalChart = page.getByTestId('chart-eval-episode_return');
    await evalChart.scrollIntoViewIfNeeded();
    await expect(evalChart).toHaveAttribute('data-points', '1');
    expect(Number.isFinite(Number(await page.getByTestId('latest-eval-episode_return').textContent())), 'eval return').toBe(true);

    await page.getByTestId('tab-inspect').click();
    await expect(page.getByTestId('chain-view-flow-only')).toHaveText(/^A Gaussian policy has no denoising chain/);
    await expect(page.getByTestId('chain-paths-flow-only')).toHaveText(/^A Gaussian policy has no denoising chains/);
    await expect(page.getByTestId('chain-error')).toHaveCount(0);

    // onnxruntime-web in the page runs the graph on env 0's rollout observation against the live policy's mean action.
    const exported = await exportOnnxChecked(page);
    expect(exported.name).toMatch(/^hopper-.*\.onnx$/);
    expect(exported.text).toMatch(/^onnxruntime-web matches the live policy: max \|Δ\| .* on env 0's newest rollout observation$/);
    expect(exported.maxAbsDifference).toBeLessThan(1e-5);
    await page.getByTestId('export-panel').screenshot({ path: testInfo.outputPath('export-onnx-gaussian.png') });

    // The file alone: obs in, actions out, no x0, and the metadata names the family.
    const session = await ort.InferenceSession.create(exported.bytes);
    try {
      expect(session.inputNames).toEqual(['obs']);
      expect(session.outputNames).toEqual(['actions']);
      const props = new Map(onnxProto.onnx.ModelProto.decode(exported.bytes).metadataProps.map((entry) => [entry.key, entry.value]));
      expect(props.get('task')).toBe('hopper');
      expect(props.get('policy_kind')).toBe('gaussian');
      const [obsDim, actionDim] = ['obs_dim', 'action_dim'].map((name) => Number(props.get(name)));
      // Gymnasium's Hopper-v5: 11 observations, 3 torques.
      expect([obsDim, actionDim]).toEqual([11, 3]);
      const batch = 3;
      const outputs = await session.run({ obs: new ort.Tensor('float32', new Float32Array(batch * obsDim), [batch, 1, obsDim]) });
      expect(outputs.actions.dims).toEqual([batch, 1, actionDim]);
      expect([...(outputs.actions.data as Float32Array)].every(Number.isFinite)).toBe(true);
    } finally {
      await session.release();
    }
  });
  test('a reload mid-run resumes the Gaussian run from its IndexedDB autosave, and its iterations equal an uninterrupted run\'s', async ({ browser }) => {
    test.setTimeout(360_000);
    // The preset's keys in the link, as a shared link carries them, with a tiny budget and short episodes.
    // Rollouts of 256 steps keep the run going well past the reload that follows the first autosave.
    const total = 10;
    const overrides = [
      'task=hopper', 'policy.kind=gaussian', 'policy.horizon=1', 'policy.n_action_steps=1', 'policy.n_obs_steps=1', 'num_envs=1',
      'env.steps_per_iteration=256', 'ppo.minibatch_size=128', 'ppo.epochs=2', `iterations=${total}`, 'eval.every=0', 'checkpoint_every=2',
      'env.max_episode_steps=20', 'ppo.lr_schedule=linear', 'ppo.critic_warmup_steps=0', 'seed=5',
    ];
    const open = async (page: Page) => {
      await page.goto(`/?backend=wasm#${tinyHash(overrides)}`);
      await expect(page.getByTestId('backend')).toHaveText('wasm');
      // The link's policy.kind keeps the fresh Gaussian policy: hopper's shipped flow checkpoint is set aside.
      await expect(page.getByTestId('model-fresh')).toContainText('policy.kind=gaussian');
    };

    const straightContext = await browser.newContext();
    const straight = await straightContext.newPage();
    await open(straight);
    await straight.getByTestId('train').click();
    await expect(straight.getByTestId('phase')).toHaveText('done', { timeout: 180_000 });
    const expected = await exportedMetrics(straight);
    await straightContext.close();
    expect(expected).toHaveLength(total);

    const context = await browser.newContext();
    const page = await context.newPage();
    await open(page);
    await reloadMidRunAndResume(page, total);
    const resumed = await exportedMetrics(page);
    await context.close();
    // Weights, optimizer moments, env state and the running observation and reward statistics all came back.
    expect(resumed).toEqual(expected);
    expect(new Set(expected.map((record) => record['losses/policy'])).size).toBe(total);
  });
});
