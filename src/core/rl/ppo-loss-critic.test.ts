import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { ppoCriticLoss, type PpoCriticOptions } from './ppo-loss-critic';
import { readMetrics } from './ppo-loss-result';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** Float64 reference: mean over valid elements of max(ℓ(V − R), ℓ(V_clip − R)). */
function referenceCritic(values: number[], oldValues: number[], returns: number[], mask: number[], options: PpoCriticOptions): number {
  const delta = options.huberDelta ?? 1;
  const ell = (error: number) => (options.lossType === 'mse' || Math.abs(error) <= delta ? 0.5 * error * error : delta * (Math.abs(error) - 0.5 * delta));
  let total = 0, count = 0;
  values.forEach((value, index) => {
    if (mask[index] === 0) return;
    let term = ell(value - returns[index]);
    if (options.clipRange !== undefined) {
      const clippedValue = oldValues[index] + Math.min(Math.max(value - oldValues[index], -options.clipRange), options.clipRange);
      term = Math.max(term, ell(clippedValue - returns[index]));
    }
    total += term;
    count++;
  });
  return total / count;
}

async function lossOf(values: number[], oldValues: number[], returns: number[], options: PpoCriticOptions, mask?: number[]) {
  const result = ppoCriticLoss({ values: tf.tensor1d(values), oldValues: tf.tensor1d(oldValues), returns: tf.tensor1d(returns), mask: mask && tf.tensor1d(mask) }, options);
  const loss = (await result.loss.data())[0];
  result.loss.dispose();
  return { loss, metrics: await readMetrics(result.metrics) };
}

describe('ppoCriticLoss', () => {
  // ε = 0.2, Huber δ = 1.
  //   e0: V = 1.5, V_old = 1,   R = 2: e = −0.5 → ½·0.25 = 0.125; V_clip = 1.2, e = −0.8 → 0.32; max 0.32 (clip wins)
  //   e1: V = 0,   V_old = 0,   R = 3: e = −3   → MSE 4.5, Huber 1·(3 − 0.5) = 2.5; V_clip = V
  //   e2: V = 2,   V_old = 2.5, R = 0: e = 2    → MSE 2, Huber 1.5; V_clip = 2.3: MSE 2.645, Huber 1.8 (clip wins)
  const values = [1.5, 0, 2];
  const oldValues = [1, 0, 2.5];
  const returns = [2, 3, 0];

  it('clips the value around the old value, with MSE and Huber (hand case)', async () => {
    const mse = await lossOf(values, oldValues, returns, { lossType: 'mse', clipRange: 0.2 });
    // (0.32 + 4.5 + 2.645) / 3 = 2.488333
    expect(mse.loss).toBeCloseTo(2.488333, 5);
    expect(mse.metrics['losses/value']).toBeCloseTo(2.488333, 5);
    expect(mse.metrics['losses/value_clip_fraction']).toBeCloseTo(2 / 3, 6);
    // (0.32 + 2.5 + 1.8) / 3 = 1.54
    const huber = await lossOf(values, oldValues, returns, { lossType: 'huber', huberDelta: 1, clipRange: 0.2 });
    expect(huber.loss).toBeCloseTo(1.54, 5);
    // Unclipped MSE: (0.125 + 4.5 + 2) / 3 = 2.208333
    const unclipped = await lossOf(values, oldValues, returns, { lossType: 'mse' });
    expect(unclipped.loss).toBeCloseTo(2.208333, 5);
    expect(unclipped.metrics['losses/value_clip_fraction']).toBe(0);
  });

  it('masks elements out, NaN included', async () => {
    // Only e0 and e2 stay: MSE with clip (0.32 + 2.645) / 2 = 1.4825.
    const masked = await lossOf([1.5, NaN, 2], [1, NaN, 2.5], [2, NaN, 0], { lossType: 'mse', clipRange: 0.2 }, [1, 0, 1]);
    expect(masked.loss).toBeCloseTo(1.4825, 5);
  });

  it('gives the value gradient (V − R)/B inside the quadratic zone and ±δ/B beyond', async () => {
    const valuesVar = tf.variable(tf.tensor1d([0.5, 4, -3]));
    const targets = tf.tensor1d([0, 0, 0]);
    const { grads } = tf.variableGrads(() => ppoCriticLoss({ values: valuesVar, oldValues: valuesVar, returns: targets }, { lossType: 'huber', huberDelta: 1 }).loss, [valuesVar]);
    // e = [0.5, 4, −3]: Huber slopes [0.5, 1, −1], divided by 3 elements.
    const gradient = Array.from(await grads[valuesVar.name].data());
    [0.5 / 3, 1 / 3, -1 / 3].forEach((expected, index) => expect(gradient[index]).toBeCloseTo(expected, 6));
    tf.dispose([valuesVar, targets, grads[valuesVar.name]]);
  });

  it('matches the float64 reference on random inputs', async () => {
    const rng = createRng(33);
    const size = 40;
    const random = (scale: number) => Array.from({ length: size }, () => scale * rng.normal());
    const [current, old, targets] = [random(2), random(2), random(2)];
    const mask = Array.from({ length: size }, () => (rng.uniform() < 0.8 ? 1 : 0));
    for (const options of [{ lossType: 'mse', clipRange: 0.3 }, { lossType: 'huber', huberDelta: 0.7, clipRange: 0.5 }, { lossType: 'huber' }] as PpoCriticOptions[]) {
      const { loss } = await lossOf(current, old, targets, options, mask);
      expect(loss).toBeCloseTo(referenceCritic(current, old, targets, mask, options), 4);
    }
  });

  it('rejects bad settings and shapes', () => {
    const inputs = { values: tf.zeros([3]), oldValues: tf.zeros([3]), returns: tf.zeros([3]) };
    expect(() => ppoCriticLoss(inputs, { lossType: 'l1' as 'mse' })).toThrow("ppo.value_loss must be one of mse, huber, got 'l1'");
    expect(() => ppoCriticLoss(inputs, { lossType: 'huber', huberDelta: 0 })).toThrow('ppo.huber_delta must be a positive number, got 0');
    expect(() => ppoCriticLoss(inputs, { lossType: 'mse', clipRange: -1 })).toThrow('ppo.value_clip must be a positive number (or unset), got -1');
    expect(() => ppoCriticLoss({ ...inputs, returns: tf.zeros([4]) }, { lossType: 'mse' })).toThrow('returns has shape [4], expected [3] like values');
  });
});
