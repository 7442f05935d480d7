import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { ppoActorLoss, type PpoActorOptions } from './ppo-loss-actor';
import { readMetrics } from './ppo-loss-result';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** Float64 reference of the per-unit loss and metrics; advantages/mask given per unit. */
function referenceActor(logProbs: number[], oldLogProbs: number[], advantages: number[], mask: number[], options: PpoActorOptions) {
  let loss = 0, kl = 0, clipped = 0, dual = 0, ratioSum = 0, ratioMax = -Infinity, count = 0;
  logProbs.forEach((logProb, unit) => {
    if (mask[unit] === 0) return;
    const advantage = advantages[unit];
    const ratio = Math.exp(logProb - oldLogProbs[unit]);
    const unclippedTerm = -advantage * ratio;
    const clippedTerm = -advantage * Math.min(Math.max(ratio, 1 - options.clipLow), 1 + options.clipHigh);
    let term = Math.max(unclippedTerm, clippedTerm);
    if (options.dualClip !== undefined && advantage < 0 && term > -options.dualClip * advantage) {
      term = -options.dualClip * advantage;
      dual++;
    }
    if (clippedTerm > unclippedTerm) clipped++;
    loss += term;
    kl += ratio - 1 - Math.log(ratio);
    ratioSum += ratio;
    ratioMax = Math.max(ratioMax, ratio);
    count++;
  });
  return { loss: loss / count, kl: kl / count, clipFraction: clipped / count, dualFraction: dual / count, ratioMean: ratioSum / count, ratioMax };
}

describe('ppoActorLoss', () => {
  const options: PpoActorOptions = { clipLow: 0.2, clipHigh: 0.28, dualClip: 3 };
  // Four units; ε_low = 0.2, ε_high = 0.28, c = 3.
  //   u0: A = 1,  r = 1.5: −1.5 vs −1.28      → −1.28 (clipped)
  //   u1: A = −1, r = 0.5:  0.5 vs 0.8        →  0.8  (clipped); cap 3 not hit
  //   u2: A = −2, r = 4:    8   vs 2.56       →  8, capped by c·|A| = 6 (dual clip)
  //   u3: A = 2,  r = 1:   −2   vs −2         → −2
  //   loss = (−1.28 + 0.8 + 6 − 2) / 4 = 0.88
  //   approx_kl = [(0.5 − ln 1.5) + (−0.5 − ln 0.5) + (3 − ln 4) + 0] / 4 = 1.901388 / 4 = 0.475347
  const ratios = [1.5, 0.5, 4, 1];
  const oldLogProbs = [-1, -2, -0.5, -3];
  const logProbs = ratios.map((ratio, unit) => oldLogProbs[unit] + Math.log(ratio));
  const advantages = [1, -1, -2, 2];

  it('computes the clipped, dual-clipped surrogate and its metrics (hand case)', async () => {
    const result = ppoActorLoss({ logProbs: tf.tensor1d(logProbs), oldLogProbs: tf.tensor1d(oldLogProbs), advantages: tf.tensor1d(advantages) }, options);
    const loss = (await result.loss.data())[0];
    result.loss.dispose();
    const metrics = await readMetrics(result.metrics);
    expect(loss).toBeCloseTo(0.88, 5);
    expect(metrics['losses/policy']).toBeCloseTo(0.88, 5);
    expect(metrics['losses/approx_kl']).toBeCloseTo(0.475347, 5);
    expect(metrics['losses/clip_fraction']).toBeCloseTo(0.5, 6);
    expect(metrics['losses/dual_clip_fraction']).toBeCloseTo(0.25, 6);
    expect(metrics['losses/ratio_mean']).toBeCloseTo(1.75, 5);
    expect(metrics['losses/ratio_max']).toBeCloseTo(4, 5);
    // Without dual clip u2 keeps 8: (−1.28 + 0.8 + 8 − 2) / 4 = 1.38.
    const plain = ppoActorLoss({ logProbs: tf.tensor1d(logProbs), oldLogProbs: tf.tensor1d(oldLogProbs), advantages: tf.tensor1d(advantages) }, { clipLow: 0.2, clipHigh: 0.28 });
    expect((await plain.loss.data())[0]).toBeCloseTo(1.38, 5);
  });

  it('passes gradient only through unclipped units', async () => {
    const logProbsVar = tf.variable(tf.tensor1d(logProbs));
    const old = tf.tensor1d(oldLogProbs);
    const adv = tf.tensor1d(advantages);
    const { grads } = tf.variableGrads(() => ppoActorLoss({ logProbs: logProbsVar, oldLogProbs: old, advantages: adv }, options).loss, [logProbsVar]);
    // Only u3 is unclipped: d(−A·r)/dlogp = −A·r = −2, divided by 4 units → −0.5.
    const gradient = Array.from(await grads[logProbsVar.name].data());
    expect(gradient[0]).toBeCloseTo(0, 6);
    expect(gradient[1]).toBeCloseTo(0, 6);
    expect(gradient[2]).toBeCloseTo(0, 6);
    expect(gradient[3]).toBeCloseTo(-0.5, 5);
    tf.dispose([logProbsVar, old, adv, grads[logProbsVar.name]]);
  });

  it('log-prob clamp (ReinFlow): new and stored log-probs clamped to [min, max] before the ratio, no gradient outside', async () => {
    // [min, max] = [−1, 1], ε = 0.2. Three units:
    //   u0: logp 0.3,  old 0.2   → inside:          r = e^0.1 = 1.1051709, A = 1:  −1.1051709 (within the clip)
    //   u1: logp 1.5,  old 0.8   → logp 1:          r = e^0.2 = 1.2214028, A = −1: max(1.2214028, 1.2) = 1.2214028
    //   u2: logp −2,   old −3    → both −1:         r = 1,                 A = 1:  −1
    //   loss = (−1.1051709 + 1.2214028 − 1)/3 = −0.8837681/3 = −0.2945894
    //   approx_kl = [(0.1051709 − 0.1) + (0.2214028 − 0.2) + 0]/3 = 0.0265737/3 = 0.0088579
    //   d loss/d logp: u0 −r/3 = −0.3683903; u1 and u2 are clamped, so 0 (u1 would pass e^0.7/3 = 0.6712509 without it).
    // Without the clamp: u1 r = e^0.7 = 2.0137527 → 2.0137527; u2 r = e^1 → clipped at 1.2 → −1.2:
    //   loss = (−1.1051709 + 2.0137527 − 1.2)/3 = −0.0971394.
    const clampOptions: PpoActorOptions = { clipLow: 0.2, clipHigh: 0.2, logProbRange: { min: -1, max: 1 } };
    const logProbsVar = tf.variable(tf.tensor1d([0.3, 1.5, -2]));
    const old = tf.tensor1d([0.2, 0.8, -3]);
    const adv = tf.tensor1d([1, -1, 1]);
    const result = ppoActorLoss({ logProbs: logProbsVar, oldLogProbs: old, advantages: adv }, clampOptions);
    expect((await result.loss.data())[0]).toBeCloseTo(-0.2945894, 5);
    const metrics = await readMetrics(result.metrics);
    expect(metrics['losses/approx_kl']).toBeCloseTo(0.0088579, 5);
    expect(metrics['losses/ratio_max']).toBeCloseTo(1.2214028, 5);
    const { grads } = tf.variableGrads(() => {
      const inner = ppoActorLoss({ logProbs: logProbsVar, oldLogProbs: old, advantages: adv }, clampOptions);
      tf.dispose(Object.values(inner.metrics));
      return inner.loss;
    }, [logProbsVar]);
    const gradient = Array.from(await grads[logProbsVar.name].data());
    expect(gradient[0]).toBeCloseTo(-0.3683903, 5);
    expect(gradient[1]).toBe(0);
    expect(gradient[2]).toBe(0);
    const unclamped = ppoActorLoss({ logProbs: logProbsVar, oldLogProbs: old, advantages: adv }, { clipLow: 0.2, clipHigh: 0.2 });
    expect((await unclamped.loss.data())[0]).toBeCloseTo(-0.0971394, 5);
    expect(() => ppoActorLoss({ logProbs: logProbsVar, oldLogProbs: old, advantages: adv }, { ...clampOptions, logProbRange: { min: 1, max: 1 } }))
      .toThrow(expect.objectContaining({ name: 'ConfigError', field: 'ppo.logprob_min' }));
    tf.dispose([logProbsVar, old, adv, result.loss, grads[logProbsVar.name], unclamped.loss, ...Object.values(unclamped.metrics)]);
  });

  it('ignores masked units even when they hold NaN, in the loss and in the gradient', async () => {
    const logProbsVar = tf.variable(tf.tensor1d([...logProbs.slice(0, 3), NaN]));
    const old = tf.tensor1d([...oldLogProbs.slice(0, 3), NaN]);
    const adv = tf.tensor1d([...advantages.slice(0, 3), NaN]);
    const mask = tf.tensor1d([1, 1, 1, 0]);
    const { grads } = tf.variableGrads(() => {
      const result = ppoActorLoss({ logProbs: logProbsVar, oldLogProbs: old, advantages: adv, mask }, options);
      tf.dispose(Object.values(result.metrics));
      return result.loss;
    }, [logProbsVar]);
    const result = ppoActorLoss({ logProbs: logProbsVar, oldLogProbs: old, advantages: adv, mask }, options);
    const loss = (await result.loss.data())[0];
    // (−1.28 + 0.8 + 6) / 3 = 1.84
    expect(loss).toBeCloseTo(1.84, 5);
    expect((await readMetrics(result.metrics))['losses/ratio_max']).toBeCloseTo(4, 5);
    expect(Array.from(await grads[logProbsVar.name].data()).every(Number.isFinite)).toBe(true);
    tf.dispose([logProbsVar, old, adv, mask, result.loss, grads[logProbsVar.name]]);
  });

  it('matches the float64 reference on random token-level log-probs with advantages broadcast from [B]', async () => {
    const rng = createRng(21);
    const [batch, chunk, actionDim] = [6, 3, 4];
    const units = batch * chunk * actionDim;
    const old = Array.from({ length: units }, () => rng.normal());
    const current = old.map((value) => value + 0.3 * rng.normal());
    const perSample = Array.from({ length: batch }, () => rng.normal());
    const maskPerSample = Array.from({ length: batch }, (_, sample) => (sample === 2 ? 0 : 1));
    const perUnit = (values: number[]) => Array.from({ length: units }, (_, unit) => values[Math.floor(unit / (chunk * actionDim))]);
    const expected = referenceActor(current, old, perUnit(perSample), perUnit(maskPerSample), options);
    const result = ppoActorLoss({
      logProbs: tf.tensor3d(current, [batch, chunk, actionDim]), oldLogProbs: tf.tensor3d(old, [batch, chunk, actionDim]),
      advantages: tf.tensor1d(perSample), mask: tf.tensor1d(maskPerSample),
    }, options);
    const metrics = await readMetrics(result.metrics);
    expect((await result.loss.data())[0]).toBeCloseTo(expected.loss, 4);
    expect(metrics['losses/approx_kl']).toBeCloseTo(expected.kl, 5);
    expect(metrics['losses/clip_fraction']).toBeCloseTo(expected.clipFraction, 5);
    expect(metrics['losses/dual_clip_fraction']).toBeCloseTo(expected.dualFraction, 5);
    expect(metrics['losses/ratio_mean']).toBeCloseTo(expected.ratioMean, 4);
    expect(metrics['losses/ratio_max']).toBeCloseTo(expected.ratioMax, 4);
  });

  it('keeps approx_kl on one scale as the action dimension grows (token units)', async () => {
    // Every token has log-ratio d = 0.1, so each unit contributes (e^0.1 − 1) − 0.1 = 0.0051709.
    // Summing over Ae first (action units) would instead give (e^(0.1·Ae) − 1) − 0.1·Ae: 0.0214 for Ae = 2, 0.4255 for Ae = 8.
    const perUnitKl = Math.expm1(0.1) - 0.1;
    for (const actionDim of [2, 8]) {
      const shape: [number, number, number] = [3, 4, actionDim];
      const old = tf.zeros(shape);
      const current = tf.fill(shape, 0.1);
      const result = ppoActorLoss({ logProbs: current, oldLogProbs: old, advantages: tf.ones([3]) }, options);
      expect((await readMetrics(result.metrics))['losses/approx_kl']).toBeCloseTo(perUnitKl, 6);
      tf.dispose([old, current, result.loss]);
    }
  });

  it('gives ratio 1, zero clip fraction and zero approx_kl when nothing changed (DESIGN.md §3 invariant)', async () => {
    const rng = createRng(6);
    const stored = Array.from({ length: 24 }, () => rng.normal());
    const result = ppoActorLoss({ logProbs: tf.tensor2d(stored, [8, 3]), oldLogProbs: tf.tensor2d(stored, [8, 3]), advantages: tf.tensor1d(Array.from({ length: 8 }, () => rng.normal())) }, options);
    const metrics = await readMetrics(result.metrics);
    expect(metrics['losses/ratio_mean']).toBe(1);
    expect(metrics['losses/ratio_max']).toBe(1);
    expect(metrics['losses/clip_fraction']).toBe(0);
    expect(metrics['losses/approx_kl']).toBe(0);
  });

  it('keeps the tensor count flat across calls and rejects bad settings and shapes', async () => {
    const run = async () => {
      const inputs = { logProbs: tf.tensor1d(logProbs), oldLogProbs: tf.tensor1d(oldLogProbs), advantages: tf.tensor1d(advantages) };
      const result = ppoActorLoss(inputs, options);
      await readMetrics(result.metrics);
      tf.dispose([result.loss, ...Object.values(inputs)]);
    };
    await run();
    const before = tf.memory().numTensors;
    for (let repeat = 0; repeat < 3; repeat++) await run();
    expect(tf.memory().numTensors).toBe(before);

    const inputs = { logProbs: tf.zeros([2, 3]), oldLogProbs: tf.zeros([2, 3]), advantages: tf.zeros([2]) };
    expect(() => ppoActorLoss(inputs, { clipLow: 1.2, clipHigh: 0.2 })).toThrow('ppo.clip_low must be in (0, 1), got 1.2');
    expect(() => ppoActorLoss(inputs, { clipLow: 0.2, clipHigh: 0 })).toThrow('ppo.clip_high must be a positive number, got 0');
    expect(() => ppoActorLoss(inputs, { clipLow: 0.2, clipHigh: 0.2, dualClip: 0.5 })).toThrow('ppo.dual_clip must be a number above 1 (or unset), got 0.5');
    expect(() => ppoActorLoss({ ...inputs, advantages: tf.zeros([3]) }, options)).toThrow('advantages has shape [3], expected [2,3] or a leading prefix of it');
    expect(() => ppoActorLoss({ ...inputs, oldLogProbs: tf.zeros([2]) }, options)).toThrow('oldLogProbs has shape [2], expected [2,3] like logProbs');
  });
});
