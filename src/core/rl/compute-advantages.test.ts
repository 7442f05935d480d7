import { describe, expect, it } from 'vitest';
import type { AdvantagesConfig } from '../config';
import { ConfigError, TrainingError } from '../errors';
import { createRng } from '../random';
import { computeAdvantages } from './compute-advantages';
import { RolloutBuffer } from './rollout-buffer';

const BASE: AdvantagesConfig = { type: 'gae', gamma: 0.5, lambda: 0.5, n_steps: 2, group_size: 2, normalize: false, grpo_filter: false, truncation: 'bootstrap' };

/**
 * T = 3 decisions × N = 2 envs, γ = 0.5, λ = 0.5. Entry (t, env) is at t·2 + env.
 *   env 0: t0 R=1 V=0.5 τ=1 goes on; t1 R=2 V=1 τ=2 truncated with V(final_obs)=4;
 *          t2 R=0 V=2 τ=1 goes on, bootstrap V=3.
 *   env 1: t0 R=1 V=1 τ=2 terminated; t1 and t2 are masked (no auto-reset) and hold
 *          junk (R=V=100, τ=0) that must never be read.
 */
function handBuffer(): RolloutBuffer {
  const buffer = new RolloutBuffer({ numSteps: 3, numEnvs: 2, obsSize: 1, chainSize: 1, denoiseSteps: 1, logProbUnits: 1 });
  buffer.rewards.set([1, 1, 2, 100, 0, 100]);
  buffer.values.set([0.5, 1, 1, 100, 2, 100]);
  buffer.chunkSteps.set([1, 2, 2, 0, 1, 0]);
  buffer.truncated.set([0, 0, 1, 0, 0, 0]);
  buffer.terminated.set([0, 1, 0, 0, 0, 0]);
  buffer.finalValues.set([0, 0, 4, 0, 0, 0]);
  buffer.mask.set([1, 1, 1, 0, 1, 0]);
  buffer.bootstrapValues.set([3, 100]);
  return buffer;
}

function expectClose(actual: Float32Array, expected: number[], digits = 6): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((value, index) => expect(actual[index]).toBeCloseTo(value, digits));
}

describe('computeAdvantages on a hand-built rollout', () => {
  it('gae', () => {
    // env 0, backward:
    //   t2: δ = 0 + 0.5¹·3 − 2 = −0.5, goes on, A2 = −0.5
    //   t1: truncated: δ = 2 + 0.5²·4 − 1 = 2, done cuts the trace: A1 = 2
    //   t0: δ = 1 + 0.5·V1 − 0.5 = 1, A0 = 1 + 0.5·0.5·A1 = 1.5
    // env 1: t0 terminated: δ = 1 + 0 − 1 = 0 → A = 0; returns = A + V.
    const { advantages, returns } = computeAdvantages(handBuffer(), BASE);
    expectClose(advantages, [1.5, 0, 2, 0, -0.5, 0]);
    expectClose(returns, [2, 1, 3, 0, 1.5, 0]);
  });

  it('gae with advantages.truncation=terminate values the truncated step 0', () => {
    // env 0 t1 is truncated: δ = 2 + 0.5²·0 − 1 = 1 (not 2 as with V(final_obs)=4), A1 = 1;
    //   t0: δ = 1, A0 = 1 + 0.5·0.5·1 = 1.25; t2 and env 1 unchanged.
    const { advantages, returns } = computeAdvantages(handBuffer(), { ...BASE, truncation: 'terminate' });
    expectClose(advantages, [1.25, 0, 1, 0, -0.5, 0]);
    expectClose(returns, [1.75, 1, 2, 0, 1.5, 0]);
  });

  it('mc', () => {
    //   env 0 t2: last step → bootstrap: G2 = 0 + 0.5·3 = 1.5, A = −0.5
    //         t1: truncated → V(final_obs): G1 = 2 + 0.25·4 = 3, A = 2
    //         t0: G0 = 1 + 0.5·G1 = 2.5, A = 2
    //   env 1 t0: terminated: G = 1, A = 0
    const { advantages, returns } = computeAdvantages(handBuffer(), { ...BASE, type: 'mc' });
    expectClose(advantages, [2, 0, 2, 0, -0.5, 0]);
    expectClose(returns, [2.5, 1, 3, 0, 1.5, 0]);
  });

  it('nstep with n = 2 and n = 1', () => {
    // n = 2, env 0 t0: 1 + 0.5·2 + (0.5·0.25)·4 = 2.5 (the second chunk is truncated, τ = 2), A = 2
    //             t1: 2 + 0.25·4 = 3, A = 2;  t2: 0 + 0.5·3 = 1.5, A = −0.5;  env 1 t0: 1, A = 0
    const two = computeAdvantages(handBuffer(), { ...BASE, type: 'nstep', n_steps: 2 });
    expectClose(two.returns, [2.5, 1, 3, 0, 1.5, 0]);
    expectClose(two.advantages, [2, 0, 2, 0, -0.5, 0]);
    // n = 1, env 0 t0: 1 + 0.5·V1 = 1.5, A = 1; the rest as above.
    const one = computeAdvantages(handBuffer(), { ...BASE, type: 'nstep', n_steps: 1 });
    expectClose(one.returns, [1.5, 1, 3, 0, 1.5, 0]);
    expectClose(one.advantages, [1, 0, 2, 0, -0.5, 0]);
  });

  it('grpo: each finished episode\'s group-normalized score on its decisions, the unfinished tail masked, Monte Carlo value targets', () => {
    // Finished episodes: env 0 t0–t1 (truncated at t1): 1 + 2 = 3; env 1 t0 (terminated): 1.
    // env 0's t2 goes on to the end of the window: unfinished, so masked.
    // One group of 2: mean 2, sample std sqrt((1² + 1²)/1) = √2, so A = ±1/(√2 + 1e-6) ≈ ±0.7071063.
    const { advantages, returns, mask, metrics } = computeAdvantages(handBuffer(), { ...BASE, type: 'grpo' });
    const a = 1 / (Math.SQRT2 + 1e-6);
    expectClose(advantages, [a, -a, a, 0, 0, 0]);
    expect(Array.from(mask)).toEqual([1, 1, 1, 0, 0, 0]);
    expectClose(returns, [2.5, 1, 3, 0, 1.5, 0]);
    expect(metrics).toEqual({});
  });

  it('grpo_filter: a group whose episodes all failed is dropped and the kept fraction is logged; other types keep the rollout mask', () => {
    // No chunk of handBuffer reached success, so its one group is all failed.
    const buffer = handBuffer();
    const dropped = computeAdvantages(buffer, { ...BASE, type: 'grpo', grpo_filter: true, normalize: true });
    expect(Array.from(dropped.mask)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(dropped.advantages)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(dropped.metrics).toEqual({ 'advantages/grpo_kept_fraction': 0 });
    // A success in env 1's episode makes the group mixed: kept, with the same scores as without the filter.
    buffer.success[1] = 1;
    const kept = computeAdvantages(buffer, { ...BASE, type: 'grpo', grpo_filter: true });
    const a = 1 / (Math.SQRT2 + 1e-6);
    expectClose(kept.advantages, [a, -a, a, 0, 0, 0]);
    expect(kept.metrics).toEqual({ 'advantages/grpo_kept_fraction': 1 });
    const gae = computeAdvantages(buffer, BASE);
    expect(gae.mask).toBe(buffer.mask);
    expect(gae.metrics).toEqual({});
  });

  it('grpo with advantages.normalize on: group-normalized only, never again over the batch (RLinf), so each group keeps mean 0', () => {
    // T = 3 decisions × N = 4 envs, groups {0, 1} and {2, 3}, every chunk τ = 1, V = 0. Entry (t, env) is at t·4 + env.
    //   env 0: R = 1, 1, 1, terminated at t2           → one episode, score 3 (3 decisions)
    //   env 1: R = 1 terminated at t0; R = 2, 0, truncated at t2 → scores 1 (1 decision) and 2 (2 decisions)
    //   env 2: R = 5, 0, 0, terminated at t2           → score 5 (3 decisions)
    //   env 3: R = 1, 0, 0, truncated at t2            → score 1 (3 decisions)
    // Group 0 scores {3, 1, 2}: mean 2, sample std sqrt((1 + 1 + 0)/2) = 1 → +1/(1 + 1e-6), −1/(1 + 1e-6), 0.
    // Group 1 scores {5, 1}: mean 3, sample std sqrt((4 + 4)/1) = 2√2 → ±2/(2√2 + 1e-6) ≈ ±0.7071.
    // Per decision the 12 valid values sum to 3a − a + 0 + 3b − 3b = 2a ≠ 0, so a batch normalization would
    // shift every value by −2a/12 ≈ −0.167: group 0's episodes would no longer average 0, and env 0's one
    // episode would weigh three decisions against env 1's one.
    const buffer = new RolloutBuffer({ numSteps: 3, numEnvs: 4, obsSize: 1, chainSize: 1, denoiseSteps: 1, logProbUnits: 1 });
    buffer.rewards.set([1, 1, 5, 1, 1, 2, 0, 0, 1, 0, 0, 0]);
    buffer.terminated.set([0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0]);
    buffer.truncated.set([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1]);
    buffer.chunkSteps.fill(1);
    buffer.mask.fill(1);
    const a = 1 / (1 + 1e-6);
    const b = 2 / (2 * Math.SQRT2 + 1e-6);
    const reference = [a, -a, b, -b, a, 0, b, -b, a, 0, b, -b];
    for (const normalize of [false, true]) {
      const { advantages, mask } = computeAdvantages(buffer, { ...BASE, type: 'grpo', normalize });
      expect(Array.from(mask)).toEqual(new Array(12).fill(1));
      expectClose(advantages, reference);
    }
    // One advantage per episode: each group's episodes average 0.
    const { advantages } = computeAdvantages(buffer, { ...BASE, type: 'grpo', normalize: true });
    expect(advantages[0] + advantages[1] + advantages[5]).toBeCloseTo(0, 6);
    expect(advantages[2] + advantages[3]).toBeCloseTo(0, 6);
  });

  it('normalize: zero mean and unit (population) std over the valid entries only; masked entries stay 0', () => {
    // gae valid advantages 1.5, 0, 2, −0.5: mean 0.75; squared deviations 0.5625, 0.5625,
    // 1.5625, 1.5625 → variance 4.25/4 = 1.0625, std ≈ 1.0307764.
    const { advantages, returns } = computeAdvantages(handBuffer(), { ...BASE, normalize: true });
    const std = Math.sqrt(1.0625);
    expectClose(advantages, [0.75 / std, -0.75 / std, 1.25 / std, 0, -1.25 / std, 0], 5);
    // Value targets are never normalized.
    expectClose(returns, [2, 1, 3, 0, 1.5, 0]);
  });

  it('matches a float64 GAE reference on a random rollout with dones (auto-reset, all valid)', () => {
    const rng = createRng(2024);
    const numSteps = 6;
    const numEnvs = 3;
    const gamma = 0.97;
    const lambda = 0.9;
    const buffer = new RolloutBuffer({ numSteps, numEnvs, obsSize: 1, chainSize: 1, denoiseSteps: 1, logProbUnits: 1 });
    for (let entry = 0; entry < numSteps * numEnvs; entry++) {
      buffer.rewards[entry] = rng.normal();
      buffer.values[entry] = rng.normal();
      buffer.chunkSteps[entry] = 1 + rng.int(4);
      const end = rng.uniform();
      buffer.terminated[entry] = end < 0.15 ? 1 : 0;
      buffer.truncated[entry] = end >= 0.15 && end < 0.3 ? 1 : 0;
      buffer.finalValues[entry] = rng.normal();
      buffer.mask[entry] = 1;
    }
    for (let envIndex = 0; envIndex < numEnvs; envIndex++) buffer.bootstrapValues[envIndex] = rng.normal();
    const reference = new Float64Array(numSteps * numEnvs);
    for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
      let next = 0;
      for (let step = numSteps - 1; step >= 0; step--) {
        const entry = step * numEnvs + envIndex;
        const discount = gamma ** buffer.chunkSteps[entry];
        const successor = buffer.terminated[entry] ? 0 : buffer.truncated[entry] ? buffer.finalValues[entry]
          : step === numSteps - 1 ? buffer.bootstrapValues[envIndex] : buffer.values[entry + numEnvs];
        const done = buffer.terminated[entry] || buffer.truncated[entry] ? 1 : 0;
        next = buffer.rewards[entry] + discount * successor - buffer.values[entry] + discount * lambda * (1 - done) * next;
        reference[entry] = next;
      }
    }
    const raw = computeAdvantages(buffer, { ...BASE, gamma, lambda });
    reference.forEach((value, entry) => {
      expect(raw.advantages[entry]).toBeCloseTo(value, 5);
      expect(raw.returns[entry]).toBeCloseTo(value + buffer.values[entry], 5);
    });
    const mean = reference.reduce((sum, value) => sum + value, 0) / reference.length;
    const std = Math.sqrt(reference.reduce((sum, value) => sum + (value - mean) ** 2, 0) / reference.length);
    const normalized = computeAdvantages(buffer, { ...BASE, gamma, lambda, normalize: true });
    reference.forEach((value, entry) => expect(normalized.advantages[entry]).toBeCloseTo((value - mean) / (std + 1e-8), 5));
  });

  it('errors: bad γ, bad n_steps, a group size that does not divide the envs, a valid chunk with τ = 0', () => {
    expect(() => computeAdvantages(handBuffer(), { ...BASE, gamma: 1.5 })).toThrow(ConfigError);
    expect(() => computeAdvantages(handBuffer(), { ...BASE, type: 'nstep', n_steps: 0 })).toThrow(/n_steps must be a positive integer, got 0/);
    expect(() => computeAdvantages(handBuffer(), { ...BASE, type: 'grpo', group_size: 3 })).toThrow(/group_size \(3\) must divide num_envs \(2\)/);
    const broken = handBuffer();
    broken.chunkSteps[0] = 0;
    expect(() => computeAdvantages(broken, BASE)).toThrow(TrainingError);
    expect(() => computeAdvantages(broken, BASE)).toThrow(/chunkSteps at step 0 of env 0 is 0/);
  });
});
