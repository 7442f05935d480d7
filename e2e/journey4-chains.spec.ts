import { expect, test, type Page } from '@playwright/test';
import { openStudio, waitForIteration } from './studio';

/** The last sample the chain view drew, as the e2e build exposes it. */
interface ExposedChains {
  count: number;
  steps: number;
  horizon: number;
  actionDim: number;
  chains: number[];
  odeChain: number[];
  denoiseInds: number[];
  method: string;
  level: number;
}

async function chainsAt(page: Page, method: string, level?: number): Promise<ExposedChains> {
  const view = page.getByTestId('chain-view');
  await expect(view).toHaveAttribute('data-method', method);
  if (level !== undefined) await expect(view).toHaveAttribute('data-level', String(level));
  await expect(view).toHaveAttribute('data-pending', '0');
  return page.evaluate(() => (window as unknown as { __flowtuneChains: ExposedChains }).__flowtuneChains);
}

/** Mean over H·A of the population std across chains of x_{k}, computed here in float64. */
function spreadAt(sample: ExposedChains, stepIndex: number): number {
  const elementSize = sample.horizon * sample.actionDim;
  let total = 0;
  for (let element = 0; element < elementSize; element++) {
    const values = Array.from({ length: sample.count }, (_, chainIndex) => sample.chains[(chainIndex * (sample.steps + 1) + stepIndex) * elementSize + element]);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    total += Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
  }
  return total / elementSize;
}

async function setLevel(page: Page, level: number): Promise<void> {
  await page.getByTestId('noise-level').fill(String(level));
  await expect(page.getByTestId('noise-level-value')).toHaveText(String(level));
}

test.describe('journey 4: denoising chains', () => {
  test('the view draws M chains and the ODE chain; their spread follows the noise level', async ({ page }) => {
    await openStudio(page, { backend: 'wasm', overrides: ['noise.method=sde', 'noise.mode=hybrid', 'noise.level=0.1'] });
    await page.getByTestId('tab-inspect').click();
    const low = await chainsAt(page, 'sde', 0.1);
    expect(low.count).toBe(16);
    // One line per chain plus the ODE chain, in every action dim's chart.
    await expect(page.getByTestId('chain-dim-0').locator('path.chain-line, path.chain-ode')).toHaveCount(low.count + 1);
    await expect(page.getByTestId('chain-charts').locator('figure')).toHaveCount(low.actionDim);
    await expect(page.getByTestId('chain-position').locator('option').first()).toHaveText(/executed/);
    // Hybrid: exactly one stochastic step per chain.
    for (let chainIndex = 0; chainIndex < low.count; chainIndex++) {
      expect(low.denoiseInds.slice(chainIndex * low.steps, (chainIndex + 1) * low.steps).reduce((sum, flag) => sum + flag, 0)).toBe(1);
    }
    // All chains share x_0, so the spread comes only from the step noise.
    expect(spreadAt(low, 0)).toBeLessThan(1e-6);

    await setLevel(page, 1);
    const high = await chainsAt(page, 'sde', 1);
    // std = sqrt(δ)·σ_i with σ_i ∝ a: ten times the level must widen the final actions clearly.
    expect(spreadAt(high, high.steps)).toBeGreaterThan(3 * spreadAt(low, low.steps));
    expect(Number(await page.getByTestId('chain-spread').textContent())).toBeCloseTo(spreadAt(high, high.steps), 3);

    await setLevel(page, 0.2);
    const lower = await chainsAt(page, 'sde', 0.2);
    expect(spreadAt(lower, lower.steps)).toBeLessThan(0.5 * spreadAt(high, high.steps));
    expect(spreadAt(lower, lower.steps)).toBeGreaterThan(spreadAt(low, low.steps));
  });

  test('with method ode every chain is the ODE chain', async ({ page }) => {
    await openStudio(page, { backend: 'wasm', overrides: ['noise.method=sde', 'noise.level=0.5'] });
    await page.getByTestId('tab-inspect').click();
    const noisy = await chainsAt(page, 'sde', 0.5);
    expect(spreadAt(noisy, noisy.steps)).toBeGreaterThan(1e-3);

    await page.getByTestId('noise-method').selectOption('ode');
    const ode = await chainsAt(page, 'ode');
    const elementCount = (ode.steps + 1) * ode.horizon * ode.actionDim;
    let maxDifference = 0;
    for (let chainIndex = 0; chainIndex < ode.count; chainIndex++) {
      for (let element = 0; element < elementCount; element++) {
        maxDifference = Math.max(maxDifference, Math.abs(ode.chains[chainIndex * elementCount + element] - ode.odeChain[element]));
      }
    }
    expect(ode.denoiseInds.every((flag) => flag === 0)).toBe(true);
    expect(maxDifference).toBeLessThan(1e-5);
  });

  test('during a run the chains come from the run\'s weights and rollout observation, between iterations and while paused', async ({ page }) => {
    await openStudio(page, { backend: 'wasm', overrides: ['iterations=400', 'eval.every=0', 'noise.method=sde', 'noise.level=0.4'] });
    await page.getByTestId('tab-inspect').click();
    await chainsAt(page, 'sde', 0.4);
    await page.getByTestId('train').click();
    await waitForIteration(page, 1);
    // A finished iteration re-samples; the worker answers between iterations, never inside an update.
    await expect(page.getByTestId('chain-meta')).toContainText('model run', { timeout: 60_000 });
    await expect(page.getByTestId('chain-meta')).toContainText('obs rollout');
    await page.getByTestId('pause').click();
    await expect(page.getByTestId('phase')).toHaveText('paused');
    const before = await chainsAt(page, 'sde', 0.4);
    await setLevel(page, 1.6);
    const after = await chainsAt(page, 'sde', 1.6);
    expect(spreadAt(after, after.steps)).toBeGreaterThan(2 * spreadAt(before, before.steps));
    await expect(page.getByTestId('chain-meta')).toContainText('model run');
  });
});
