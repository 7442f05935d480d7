import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { fitBaseline, fitOf } from './fit-baseline';
import { ValueCritic } from './value-critic';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const CRITIC = { hidden: [32, 32], steps: 300, batchSize: 64, learningRate: 3e-3, seed: 4 };

/** 12 episodes of 10 samples: 3-D features, return = 2·x0 − x1² + 5 plus a little noise. */
function smoothData(): { features: Float32Array; returns: Float32Array; episodeOf: Int32Array } {
  const rng = createRng(21);
  const size = 120;
  const features = Float32Array.from({ length: size * 3 }, () => 2 * rng.uniform() - 1);
  const returns = Float32Array.from({ length: size }, (_, row) => 2 * features[row * 3] - features[row * 3 + 1] ** 2 + 5 + 0.05 * rng.normal());
  const episodeOf = Int32Array.from({ length: size }, (_, row) => Math.floor(row / 10));
  return { features, returns, episodeOf };
}

describe('stage-2 critic', () => {
  it('fitOf: MSE and explained variance in float64', () => {
    // G = [1, 2, 3, 6], V = [1, 3, 3, 4]: residuals [0, −1, 0, 2], MSE 5/4 = 1.25.
    // Var(G) = 3.5 (mean 3); residual mean 0.25, Var = (0.0625 + 1.5625 + 0.0625 + 3.0625)/4 = 1.1875; EV = 1 − 1.1875/3.5 = 0.660714.
    const fit = fitOf([1, 2, 3, 6], [1, 3, 3, 4]);
    expect(fit.mse).toBeCloseTo(1.25, 12);
    expect(fit.explainedVariance).toBeCloseTo(0.660714, 6);
  });

  it('regresses a smooth return, in sample and held out, and leaks no tensors', async () => {
    const { features, returns, episodeOf } = smoothData();
    const tensors = tf.memory().numTensors;
    const inSample = await fitBaseline(features, returns, episodeOf, 1, CRITIC);
    const heldOut = await fitBaseline(features, returns, episodeOf, 3, CRITIC);
    expect(tf.memory().numTensors).toBe(tensors);
    // Measured: explained variance 0.998 in sample and 0.998 held out over 3 folds.
    expect(inSample.fit.explainedVariance).toBeGreaterThan(0.9);
    expect(heldOut.fit.explainedVariance).toBeGreaterThan(0.8);
  });

  it('cross-fitted: a sample\'s baseline does not see its own episode\'s returns', async () => {
    const { features, returns, episodeOf } = smoothData();
    const changed = returns.slice();
    for (let row = 0; row < 10; row++) changed[row] += 50;
    const before = await fitBaseline(features, returns, episodeOf, 2, CRITIC);
    const after = await fitBaseline(features, changed, episodeOf, 2, CRITIC);
    // Episode 0 sits in fold 0, predicted by the critic fit on fold 1 only: unchanged.
    expect(Array.from(after.values.subarray(0, 10))).toEqual(Array.from(before.values.subarray(0, 10)));
    // Fold 1 (odd episodes) is predicted by the critic that did see the change.
    expect(Math.abs(after.values[15] - before.values[15])).toBeGreaterThan(1e-3);
    // With one critic on everything, the change reaches episode 0's own baseline.
    const inSample = await fitBaseline(features, returns, episodeOf, 1, CRITIC);
    const inSampleChanged = await fitBaseline(features, changed, episodeOf, 1, CRITIC);
    expect(inSampleChanged.values[0] - inSample.values[0]).toBeGreaterThan(1);
  });

  it('names bad options and shapes', async () => {
    const { features, returns, episodeOf } = smoothData();
    expect(() => new ValueCritic(3, { ...CRITIC, hidden: [] })).toThrow('critic_hidden must list at least one width');
    expect(() => new ValueCritic(3, { ...CRITIC, steps: 0 })).toThrow('critic_steps must be a positive integer, got 0');
    await expect(fitBaseline(features, returns, episodeOf.subarray(1), 2, CRITIC)).rejects.toThrow('episodeOf has 119 entries; expected one per sample (120)');
    await expect(fitBaseline(features, returns, episodeOf, 0, CRITIC)).rejects.toThrow('critic_folds must be a positive integer, got 0');
    const critic = new ValueCritic(4, CRITIC);
    expect(() => critic.fit(features, returns)).toThrow('critic features must be [S, 4] for 120 returns, got 360 values');
    critic.dispose();
  });
});
