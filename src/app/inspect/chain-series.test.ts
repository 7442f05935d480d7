import { describe, expect, test } from 'vitest';
import type { ChainSample } from '../../protocol/trainer-api';
import { bandPoints, chainAxis, chainValues, finalSpread, fineTunedSpan, positionLabels } from './chain-series';

/** M = 2 chains, K = 2, H = 2, A = 2; every value encodes its own index: 1000·m + 100·k + 10·h + a. */
function codedSample(): ChainSample {
  const [count, steps, horizon, actionDim] = [2, 2, 2, 2];
  const chains = new Float32Array(count * (steps + 1) * horizon * actionDim);
  const odeChain = new Float32Array((steps + 1) * horizon * actionDim);
  const means = new Float32Array(count * steps * horizon * actionDim);
  const stds = new Float32Array(count * steps * horizon * actionDim);
  for (let m = 0; m < count; m++) for (let k = 0; k <= steps; k++) for (let h = 0; h < horizon; h++) for (let a = 0; a < actionDim; a++) {
    chains[((m * (steps + 1) + k) * horizon + h) * actionDim + a] = 1000 * m + 100 * k + 10 * h + a;
    if (m === 0) odeChain[(k * horizon + h) * actionDim + a] = -(100 * k + 10 * h + a);
    if (k < steps) {
      means[((m * steps + k) * horizon + h) * actionDim + a] = 0.5 + 1000 * m + 100 * k + 10 * h + a;
      stds[((m * steps + k) * horizon + h) * actionDim + a] = 0.25 * (m + 1);
    }
  }
  // Chain 0 is stochastic at step 1, chain 1 at step 0.
  const denoiseInds = Float32Array.from([0, 1, 1, 0]);
  return {
    family: 'flow', count, steps, horizon, actionDim, nActionSteps: 1, chains, odeChain, denoiseInds, means, stds,
    method: 'sde', mode: 'hybrid', level: 0.5, envIndex: 0, obsSource: 'reset', model: 'selected',
  };
}

describe('chain view rows', () => {
  test('chainValues reads x_k[h, a] of each chain and of the ODE chain', () => {
    const values = chainValues(codedSample(), 1, 0);
    // Chain m at k, h = 1, a = 0 → 1000·m + 100·k + 10; the ODE chain is −(100·k + 10).
    expect(values.chains).toEqual([[10, 110, 210], [1010, 1110, 1210]]);
    expect(values.ode).toEqual([-10, -110, -210]);
  });

  test('bandPoints puts μ_k ± std_k at k + 1 only for stochastic steps', () => {
    const points = bandPoints(codedSample(), 0, 1);
    expect(points).toEqual([
      // Chain 0, step 1: μ = 0.5 + 100 + 1, std 0.25, drawn at k = 2.
      { k: 2, chainIndex: 0, mean: 101.5, error: [0.25, 0.25] },
      // Chain 1, step 0: μ = 0.5 + 1000 + 1, std 0.5, drawn at k = 1.
      { k: 1, chainIndex: 1, mean: 1001.5, error: [0.5, 0.5] },
    ]);
  });

  test('positionLabels marks the first n_action_steps positions as executed', () => {
    expect(positionLabels(3, 2).map((entry) => entry.label)).toEqual(['0 · executed', '1 · executed', '2 · planned']);
  });

  test('finalSpread is the mean population std of x_K across chains', () => {
    // Two chains whose x_K differ by 1000 in every element: std = 500 for each element.
    expect(finalSpread(codedSample())).toBeCloseTo(500, 6);
    const sample = codedSample();
    const random = Array.from({ length: 4 }, () => Math.random());
    for (let element = 0; element < 4; element++) {
      sample.chains[2 * 4 + element] = random[element];
      sample.chains[(3 + 2) * 4 + element] = random[element];
    }
    expect(finalSpread(sample)).toBeCloseTo(0, 5);
  });

  test('chainAxis counts a flow chain by k, a diffusion chain by its timesteps with the action last', () => {
    const flow = chainAxis(codedSample());
    expect(flow.ticks).toEqual([0, 1, 2]);
    expect(flow.ticks.map(flow.label)).toEqual(['0', '1', '2']);
    // DDPM with T = 20: the elements are read at t = 19 … 0, then the action; 21 elements get 11 ticks, 2 apart.
    const ddpm: ChainSample = { ...codedSample(), family: 'diffusion', steps: 20, timesteps: Array.from({ length: 20 }, (_, index) => 19 - index), denoiseSteps: 20, ddimSteps: 0, ftSteps: 10, minSamplingStd: 0.1 };
    const axis = chainAxis(ddpm);
    expect(axis.ticks).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    expect(axis.ticks.map(axis.label)).toEqual(['19', '17', '15', '13', '11', '9', '7', '5', '3', '1', 'a']);
    expect(axis.describe(0)).toBe('x_t at t = 19 (step 1 of 20 reads it)');
    expect(axis.describe(20)).toBe('the action (after t = 0)');
    // The last 10 steps are fine-tuned: their inputs from element 10, up to the action.
    expect(fineTunedSpan(ddpm)).toEqual([10, 20]);
    expect(fineTunedSpan(codedSample())).toBeUndefined();
    // DDIM 5 of T = 20: the leading grid 16, 12, 8, 4, 0.
    const ddim: ChainSample = { ...ddpm, steps: 5, timesteps: [16, 12, 8, 4, 0], ddimSteps: 5, ftSteps: 2 };
    const grid = chainAxis(ddim);
    expect(grid.ticks.map(grid.label)).toEqual(['16', '12', '8', '4', '0', 'a']);
    expect(fineTunedSpan(ddim)).toEqual([3, 5]);
    // 13 elements on 5 ticks: 3 apart, the last one kept and the one before it dropped when they crowd.
    expect(chainAxis({ ...ddpm, steps: 12 }, 5).ticks).toEqual([0, 3, 6, 9, 12]);
    expect(chainAxis({ ...ddpm, steps: 13 }, 5).ticks).toEqual([0, 4, 8, 13]);
  });
});
