import { describe, expect, it } from 'vitest';
import { createRng } from '../../random';
import { computeGae } from './gae';
import type { RolloutSignals } from './rollout-signals';

/** Builds [T, N] signals from per-env rows (row[envIndex][t]) so hand cases read naturally. */
function fromRows(rows: { rewards: number[]; values: number[]; terminated: number[]; truncated: number[]; chunkSteps: number[]; finalValues: number[]; mask?: number[] }[], bootstrapValues: number[]): RolloutSignals {
  const numEnvs = rows.length;
  const numSteps = rows[0].rewards.length;
  const flat = (key: keyof (typeof rows)[number]): Float32Array => {
    const out = new Float32Array(numSteps * numEnvs);
    rows.forEach((row, envIndex) => (row[key] ?? []).forEach((value, step) => (out[step * numEnvs + envIndex] = value)));
    return out;
  };
  const hasMask = rows.some((row) => row.mask !== undefined);
  return {
    numSteps, numEnvs,
    rewards: flat('rewards'), values: flat('values'), terminated: flat('terminated'), truncated: flat('truncated'),
    chunkSteps: flat('chunkSteps'), finalValues: flat('finalValues'), bootstrapValues: Float32Array.from(bootstrapValues),
    mask: hasMask ? flat('mask') : undefined,
  };
}

/** Float64 reference by the forward sum A_t = Σ_l (Π_{j<l} γ^τ_{t+j}·λ)·δ_{t+l}, stopping after a done. */
function referenceGae(signals: RolloutSignals, gamma: number, lambda: number): Float64Array {
  const { numSteps, numEnvs } = signals;
  const at = (step: number, envIndex: number) => step * numEnvs + envIndex;
  const valid = (i: number) => signals.mask === undefined || signals.mask[i] !== 0;
  const delta = (step: number, envIndex: number): number => {
    const i = at(step, envIndex);
    let next: number;
    if (signals.terminated[i]) next = 0;
    else if (signals.truncated[i]) next = signals.finalValues[i];
    else if (step === numSteps - 1) next = signals.bootstrapValues[envIndex];
    else next = signals.values[at(step + 1, envIndex)];
    return signals.rewards[i] + gamma ** signals.chunkSteps[i] * next - signals.values[i];
  };
  const out = new Float64Array(numSteps * numEnvs);
  for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
    for (let step = 0; step < numSteps; step++) {
      if (!valid(at(step, envIndex))) continue;
      let weight = 1;
      let sum = 0;
      for (let later = step; later < numSteps; later++) {
        const i = at(later, envIndex);
        sum += weight * delta(later, envIndex);
        if (signals.terminated[i] || signals.truncated[i]) break;
        weight *= gamma ** signals.chunkSteps[i] * lambda;
      }
      out[at(step, envIndex)] = sum;
    }
  }
  return out;
}

function randomSignals(seed: number, numSteps: number, numEnvs: number): RolloutSignals {
  const rng = createRng(seed);
  const size = numSteps * numEnvs;
  const terminated = new Float32Array(size);
  const truncated = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    const roll = rng.uniform();
    if (roll < 0.15) terminated[i] = 1;
    else if (roll < 0.25) truncated[i] = 1;
  }
  return {
    numSteps, numEnvs, terminated, truncated,
    rewards: rng.fillNormal(new Float32Array(size)),
    values: rng.fillNormal(new Float32Array(size)),
    finalValues: rng.fillNormal(new Float32Array(size)),
    chunkSteps: Float32Array.from({ length: size }, () => 1 + rng.int(4)),
    bootstrapValues: rng.fillNormal(new Float32Array(numEnvs)),
  };
}

describe('computeGae', () => {
  it('separates a termination from a truncation in the middle of a rollout (hand case)', () => {
    // γ = 0.5, λ = 0.5, chunk lengths τ = [1, 2, 1], so γ^τ = [0.5, 0.25, 0.5].
    const signals = fromRows([
      // env 0 terminates at t = 1; V_3 = 4.
      //   t=2: δ = 3 + 0.5·4 − 2 = 3,        A = 3
      //   t=1: δ = 2 + 0.25·0 − 1 = 1,       A = 1 (done, no carry)
      //   t=0: δ = 1 + 0.5·V_1 − 0.5 = 1,    A = 1 + 0.5·0.5·1 = 1.25
      { rewards: [1, 2, 3], values: [0.5, 1, 2], terminated: [0, 1, 0], truncated: [0, 0, 0], chunkSteps: [1, 2, 1], finalValues: [0, 0, 0] },
      // env 1 is truncated at t = 1 with V(final_obs) = 6; V_3 = 2.
      //   t=2: δ = 0 + 0.5·2 − 1 = 0,        A = 0
      //   t=1: δ = 1 + 0.25·6 − 2 = 0.5,     A = 0.5 (done, no carry)
      //   t=0: δ = 0 + 0.5·2 − 1 = 0,        A = 0 + 0.25·0.5 = 0.125
      { rewards: [0, 1, 0], values: [1, 2, 1], terminated: [0, 0, 0], truncated: [0, 1, 0], chunkSteps: [1, 2, 1], finalValues: [0, 6, 0] },
    ], [4, 2]);
    const { advantages, returns } = computeGae(signals, 0.5, 0.5);
    // Time-major: [A(t0,e0), A(t0,e1), A(t1,e0), A(t1,e1), A(t2,e0), A(t2,e1)].
    expect(Array.from(advantages)).toEqual([1.25, 0.125, 1, 0.5, 3, 0]);
    // returns = A + V.
    expect(Array.from(returns)).toEqual([1.75, 1.125, 2, 2.5, 5, 1]);

    // Reading env 1's truncation as a termination would give δ_1 = 1 − 2 = −1 instead.
    const asTermination = { ...signals, terminated: signals.truncated, truncated: signals.terminated };
    expect(computeGae(asTermination, 0.5, 0.5).advantages[3]).toBe(-1);
  });

  it('discounts a chunk that ran τ env steps by γ^τ (SMDP)', () => {
    // One env, τ = [3, 1], γ = 0.9, λ = 1, V = [0, 1], R = [1, 0], V_2 = 0.
    //   t=1: δ = 0 + 0.9·0 − 1 = −1,                 A = −1
    //   t=0: δ = 1 + 0.9³·1 − 0 = 1.729,             A = 1.729 + 0.729·1·(−1) = 1
    const signals = fromRows([{ rewards: [1, 0], values: [0, 1], terminated: [0, 0], truncated: [0, 0], chunkSteps: [3, 1], finalValues: [0, 0] }], [0]);
    const { advantages } = computeGae(signals, 0.9, 1);
    expect(advantages[0]).toBeCloseTo(1, 6);
    expect(advantages[1]).toBeCloseTo(-1, 6);
    // With τ = 1 the same data gives δ_0 = 1 + 0.9 − 0 = 1.9, A_0 = 1.9 − 0.9 = 1.0 too, but δ differs:
    const oneStep = computeGae({ ...signals, chunkSteps: Float32Array.of(1, 1) }, 0.9, 0);
    expect(oneStep.advantages[0]).toBeCloseTo(1.9, 6);
    expect(computeGae(signals, 0.9, 0).advantages[0]).toBeCloseTo(1.729, 6);
  });

  it('matches the float64 forward-sum reference on random rollouts', () => {
    for (const seed of [1, 2, 3]) {
      const signals = randomSignals(seed, 9, 5);
      const expected = referenceGae(signals, 0.97, 0.9);
      const { advantages, returns } = computeGae(signals, 0.97, 0.9);
      for (let i = 0; i < expected.length; i++) {
        expect(advantages[i]).toBeCloseTo(expected[i], 4);
        expect(returns[i]).toBeCloseTo(expected[i] + signals.values[i], 4);
      }
    }
  });

  it('ignores masked steps after a done, even when they hold garbage', () => {
    const clean = fromRows([
      { rewards: [1, 2, 0, 0], values: [0.5, 1, 0, 0], terminated: [0, 1, 0, 0], truncated: [0, 0, 0, 0], chunkSteps: [1, 1, 1, 1], finalValues: [0, 0, 0, 0], mask: [1, 1, 0, 0] },
      { rewards: [1, 1, 1, 1], values: [1, 1, 1, 1], terminated: [0, 0, 0, 0], truncated: [0, 0, 0, 0], chunkSteps: [1, 1, 1, 1], finalValues: [0, 0, 0, 0], mask: [1, 1, 1, 1] },
    ], [0, 3]);
    const rewards = Float32Array.from(clean.rewards);
    const values = Float32Array.from(clean.values);
    const chunkSteps = Float32Array.from(clean.chunkSteps);
    const dirty: RolloutSignals = { ...clean, rewards, values, chunkSteps };
    for (const step of [2, 3]) {
      const flatIndex = step * 2; // env 0
      rewards[flatIndex] = NaN;
      values[flatIndex] = 1e30;
      chunkSteps[flatIndex] = 0;
    }
    const expected = computeGae(clean, 0.9, 0.95);
    const actual = computeGae(dirty, 0.9, 0.95);
    expect(Array.from(actual.advantages)).toEqual(Array.from(expected.advantages));
    expect(actual.advantages[4]).toBe(0);
    expect(actual.returns[6]).toBe(0);
    // Env 0: t=1 δ = 2 − 1 = 1; t=0 δ = 1 + 0.9·1 − 0.5 = 1.4, A = 1.4 + 0.9·0.95·1 = 2.255.
    expect(actual.advantages[0]).toBeCloseTo(2.255, 5);
  });

  it('rejects a masked step that does not follow a done', () => {
    const signals = fromRows([{ rewards: [1, 1], values: [0, 0], terminated: [0, 0], truncated: [0, 0], chunkSteps: [1, 1], finalValues: [0, 0], mask: [1, 0] }], [0]);
    expect(() => computeGae(signals, 0.9, 0.9)).toThrow('mask drops step 1 of env 0 although step 0 is neither terminated nor truncated; a masked step must follow a done');
  });

  it('rejects wrong lengths, bad τ and out-of-range γ, λ', () => {
    const signals = randomSignals(4, 3, 2);
    expect(() => computeGae({ ...signals, rewards: new Float32Array(5) }, 0.9, 0.9)).toThrow('rewards has length 5, expected T × N = 3 × 2 = 6');
    expect(() => computeGae({ ...signals, bootstrapValues: new Float32Array(3) }, 0.9, 0.9)).toThrow('bootstrapValues has length 3, expected N = 2');
    expect(() => computeGae({ ...signals, chunkSteps: new Float32Array(6) }, 0.9, 0.9)).toThrow('chunkSteps at step 0 of env 0 is 0; a chunk runs at least 1 env step');
    expect(() => computeGae(signals, 1.5, 0.9)).toThrow('gamma must be in [0, 1], got 1.5');
    expect(() => computeGae(signals, 0.9, -0.1)).toThrow('gae_lambda must be in [0, 1], got -0.1');
    expect(() => computeGae({ ...signals, numSteps: 0 }, 0.9, 0.9)).toThrow('numSteps must be a positive integer, got 0');
  });
});
