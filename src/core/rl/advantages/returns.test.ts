import { describe, expect, it } from 'vitest';
import { createRng } from '../../random';
import { computeGae } from './gae';
import { computeMonteCarlo } from './monte-carlo';
import { computeNStep } from './n-step';
import type { RolloutSignals } from './rollout-signals';

/** One env (N = 1) so arrays read as time series. */
function singleEnv(fields: { rewards: number[]; values: number[]; terminated?: number[]; truncated?: number[]; chunkSteps?: number[]; finalValues?: number[] }, bootstrap: number): RolloutSignals {
  const numSteps = fields.rewards.length;
  const zeros = () => new Array<number>(numSteps).fill(0);
  return {
    numSteps, numEnvs: 1,
    rewards: Float32Array.from(fields.rewards), values: Float32Array.from(fields.values),
    terminated: Float32Array.from(fields.terminated ?? zeros()), truncated: Float32Array.from(fields.truncated ?? zeros()),
    chunkSteps: Float32Array.from(fields.chunkSteps ?? new Array<number>(numSteps).fill(1)),
    finalValues: Float32Array.from(fields.finalValues ?? zeros()), bootstrapValues: Float32Array.of(bootstrap),
  };
}

function randomSignals(seed: number, numSteps: number, numEnvs: number): RolloutSignals {
  const rng = createRng(seed);
  const size = numSteps * numEnvs;
  const pick = (p: number) => Float32Array.from({ length: size }, () => (rng.uniform() < p ? 1 : 0));
  return {
    numSteps, numEnvs, terminated: pick(0.1), truncated: pick(0.1),
    rewards: rng.fillNormal(new Float32Array(size)), values: rng.fillNormal(new Float32Array(size)),
    finalValues: rng.fillNormal(new Float32Array(size)), bootstrapValues: rng.fillNormal(new Float32Array(numEnvs)),
    chunkSteps: Float32Array.from({ length: size }, () => 1 + rng.int(3)),
  };
}

describe('computeMonteCarlo', () => {
  it('sums discounted chunk rewards back to the episode start (hand case)', () => {
    // γ = 0.5, τ = [1, 2, 1], terminated at t = 2, R = [1, 2, 4], V = [1, 1, 1].
    //   G_2 = 4
    //   G_1 = 2 + 0.5²·4 = 3
    //   G_0 = 1 + 0.5·3 = 2.5
    const signals = singleEnv({ rewards: [1, 2, 4], values: [1, 1, 1], terminated: [0, 0, 1], chunkSteps: [1, 2, 1] }, 100);
    const { returns, advantages } = computeMonteCarlo(signals, 0.5);
    expect(Array.from(returns)).toEqual([2.5, 3, 4]);
    expect(Array.from(advantages)).toEqual([1.5, 2, 3]);
  });

  it('bootstraps a truncated or unfinished tail unless told not to', () => {
    // γ = 0.5, truncated at t = 0 with V(final_obs) = 8, then one step with V_2 = 4.
    //   bootstrap:  G_0 = 1 + 0.5·8 = 5,  G_1 = 2 + 0.5·4 = 4
    //   pure:       G_0 = 1,              G_1 = 2
    const signals = singleEnv({ rewards: [1, 2], values: [0, 0], truncated: [1, 0], finalValues: [8, 0] }, 4);
    expect(Array.from(computeMonteCarlo(signals, 0.5).returns)).toEqual([5, 4]);
    expect(Array.from(computeMonteCarlo(signals, 0.5, { bootstrap: false }).returns)).toEqual([1, 2]);
  });

  it('equals GAE with λ = 1 on random rollouts', () => {
    const signals = randomSignals(11, 8, 4);
    const monteCarlo = computeMonteCarlo(signals, 0.95);
    const gae = computeGae(signals, 0.95, 1);
    for (let i = 0; i < monteCarlo.returns.length; i++) expect(monteCarlo.returns[i]).toBeCloseTo(gae.returns[i], 4);
  });
});

describe('computeNStep', () => {
  it('sums n chunk rewards and bootstraps from V_{t+n} (hand case)', () => {
    // γ = 0.5, τ = 1, n = 2, R = [1, 1, 1, 1], V = [0, 2, 4, 8], V_4 = 16.
    //   G_0 = 1 + 0.5·1 + 0.25·V_2 = 1.5 + 1 = 2.5
    //   G_1 = 1 + 0.5·1 + 0.25·V_3 = 1.5 + 2 = 3.5
    //   G_2 = 1 + 0.5·1 + 0.25·V_4 = 1.5 + 4 = 5.5
    //   G_3 = 1 + 0.5·V_4 = 9 (the rollout ends after one chunk)
    const signals = singleEnv({ rewards: [1, 1, 1, 1], values: [0, 2, 4, 8] }, 16);
    const { returns, advantages } = computeNStep(signals, 0.5, 2);
    expect(Array.from(returns)).toEqual([2.5, 3.5, 5.5, 9]);
    expect(Array.from(advantages)).toEqual([2.5, 1.5, 1.5, 1]);
  });

  it('stops at a termination and uses V(final_obs) at a truncation, with chunk discounts', () => {
    // γ = 0.5, τ = [2, 1, 1], n = 3, terminated at t = 0 for env case A; truncated at t = 1 for case B.
    //   A: G_0 = 3 (no bootstrap)
    //   B: G_0 = 3 + 0.5²·(1 + 0.5·V_final) = 3 + 0.25·(1 + 0.5·6) = 4
    const caseA = singleEnv({ rewards: [3, 1, 1], values: [0, 0, 0], terminated: [1, 0, 0], chunkSteps: [2, 1, 1] }, 0);
    const caseB = singleEnv({ rewards: [3, 1, 1], values: [0, 0, 0], truncated: [0, 1, 0], chunkSteps: [2, 1, 1], finalValues: [0, 6, 0] }, 0);
    expect(computeNStep(caseA, 0.5, 3).returns[0]).toBe(3);
    expect(computeNStep(caseB, 0.5, 3).returns[0]).toBe(4);
  });

  it('is the TD(0) target for n = 1 and the Monte Carlo return for n ≥ T', () => {
    const signals = randomSignals(12, 6, 3);
    const td = computeGae(signals, 0.9, 0);
    const oneStep = computeNStep(signals, 0.9, 1);
    const monteCarlo = computeMonteCarlo(signals, 0.9);
    const longStep = computeNStep(signals, 0.9, 6);
    for (let i = 0; i < td.advantages.length; i++) {
      expect(oneStep.advantages[i]).toBeCloseTo(td.advantages[i], 4);
      expect(longStep.returns[i]).toBeCloseTo(monteCarlo.returns[i], 4);
    }
  });

  it('never reads masked steps after a termination, for n-step and Monte Carlo alike', () => {
    // Env terminates at t = 1; steps 2 and 3 are masked and hold garbage.
    const clean = singleEnv({ rewards: [1, 2, 0, 0], values: [0.5, 1, 0, 0], terminated: [0, 1, 0, 0] }, 0);
    const dirty: RolloutSignals = { ...clean, rewards: Float32Array.of(1, 2, NaN, NaN), values: Float32Array.of(0.5, 1, Infinity, NaN), chunkSteps: Float32Array.of(1, 1, 0, -3) };
    clean.mask = dirty.mask = Float32Array.of(1, 1, 0, 0);
    // γ = 0.9: G_1 = 2, G_0 = 1 + 0.9·2 = 2.8 (Monte Carlo); 3-step is the same since the episode ends at t = 1.
    for (const estimate of [(s: RolloutSignals) => computeNStep(s, 0.9, 3), (s: RolloutSignals) => computeMonteCarlo(s, 0.9)]) {
      const { returns } = estimate(dirty);
      expect(returns[0]).toBeCloseTo(2.8, 6);
      expect(Array.from(returns.subarray(1))).toEqual([2, 0, 0]);
      expect(Array.from(returns)).toEqual(Array.from(estimate(clean).returns));
    }
  });

  it('rejects a non-positive n', () => {
    expect(() => computeNStep(randomSignals(1, 2, 2), 0.9, 0)).toThrow('n_steps must be a positive integer, got 0');
  });
});
