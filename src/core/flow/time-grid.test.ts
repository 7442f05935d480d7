import { describe, expect, test } from 'vitest';
import { createRng } from '../random';
import { sdeSigmas, stepCoefficients, timeGrid } from './time-grid';

describe('time grid', () => {
  test('t_i = 1 − i/K and δ = 1/K', () => {
    // K = 4: t = [1, 0.75, 0.5, 0.25, 0], δ = 0.25.
    const grid = timeGrid(4);
    expect(grid.times).toEqual([1, 0.75, 0.5, 0.25, 0]);
    expect(grid.delta).toBe(0.25);
  });

  test('bad K throws a ConfigError naming policy.denoise_steps', () => {
    for (const bad of [0, -1, 2.5, NaN]) {
      expect(() => timeGrid(bad)).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'policy.denoise_steps' }));
    }
  });
});

describe('sde sigma schedule (DESIGN.md §3 flow_sde)', () => {
  test('K = 4, a = 0.5 matches the hand values', () => {
    // σ_0 = 0.5·sqrt(1/(1 − t_1)) = 0.5·sqrt(1/0.25) = 1
    // σ_1 = 0.5·sqrt(0.75/0.25) = 0.5·1.7320508 = 0.8660254
    // σ_2 = 0.5·sqrt(0.5/0.5) = 0.5
    // σ_3 = 0.5·sqrt(0.25/0.75) = 0.5·0.5773503 = 0.2886751
    const sigmas = sdeSigmas(4, 0.5);
    [1, 0.8660254, 0.5, 0.2886751].forEach((expected, stepIndex) => expect(sigmas[stepIndex]).toBeCloseTo(expected, 6));
    // std = sqrt(δ)·σ = 0.5·σ = [0.5, 0.4330127, 0.25, 0.1443376]
    const { std } = stepCoefficients('sde', 4, 0.5);
    [0.5, 0.4330127, 0.25, 0.1443376].forEach((expected, stepIndex) => expect(std[stepIndex]).toBeCloseTo(expected, 6));
  });

  test('sde weights for K = 4, a = 0.5', () => {
    // i = 1: t = 0.75, t − δ = 0.5, w0 = 0.5, w1 = 0.5 − 0.75·0.25/(2·0.75) = 0.5 − 0.125 = 0.375
    // i = 0: t = 1, w0 = 0.25, w1 = 0.75 − 1·0.25/2 = 0.625
    const { w0, w1 } = stepCoefficients('sde', 4, 0.5);
    expect(w0[0]).toBeCloseTo(0.25, 12);
    expect(w1[0]).toBeCloseTo(0.625, 12);
    expect(w0[1]).toBeCloseTo(0.5, 12);
    expect(w1[1]).toBeCloseTo(0.375, 12);
  });

  test('fresh random K and a agree with a float64 reference', () => {
    const rng = createRng(11);
    for (let trial = 0; trial < 20; trial++) {
      const steps = 1 + rng.int(10);
      const level = 0.05 + rng.uniform();
      const { w0, w1, std } = stepCoefficients('sde', steps, level);
      for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
        const t = 1 - stepIndex / steps;
        const delta = 1 / steps;
        const denominator = stepIndex === 0 ? 1 - (steps === 1 ? 0 : 1 - 1 / steps) : 1 - t;
        const sigma = level * Math.sqrt(t / denominator);
        expect(w0[stepIndex]).toBeCloseTo(1 - (t - delta), 10);
        expect(w1[stepIndex]).toBeCloseTo(t - delta - (sigma * sigma * delta) / (2 * t), 10);
        expect(std[stepIndex]).toBeCloseTo(Math.sqrt(delta) * sigma, 10);
      }
    }
  });
});

describe('cps and ode coefficients', () => {
  test('cps K = 4, a = 0.5', () => {
    // cos(π/4) = sin(π/4) = 0.70710678; t − δ = [0.75, 0.5, 0.25, 0]
    // w1 = [0.530330, 0.353553, 0.176777, 0], std = the same values, the last std is 0.
    const { w0, w1, std } = stepCoefficients('cps', 4, 0.5);
    expect(w0).toEqual([0.25, 0.5, 0.75, 1]);
    [0.5303301, 0.3535534, 0.1767767, 0].forEach((expected, stepIndex) => {
      expect(w1[stepIndex]).toBeCloseTo(expected, 6);
      expect(std[stepIndex]).toBeCloseTo(expected, 6);
    });
  });

  test('ode and noise are plain Euler with std 0', () => {
    for (const method of ['ode', 'noise'] as const) {
      const { w0, w1, std } = stepCoefficients(method, 4, 0);
      expect(w0).toEqual([0.25, 0.5, 0.75, 1]);
      expect(w1).toEqual([0.75, 0.5, 0.25, 0]);
      expect(std).toEqual([0, 0, 0, 0]);
    }
  });

  test('bad method or level throws a ConfigError naming the field', () => {
    expect(() => stepCoefficients('sde', 4, 0)).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'noise.level' }));
    expect(() => stepCoefficients('cps', 4, 1.5)).toThrow(/noise.level must be in \(0, 1\]/);
    expect(() => stepCoefficients('bogus' as 'ode', 4, 0.5)).toThrow(/noise.method must be one of ode, sde, cps, noise/);
  });
});

describe("where the net is evaluated (DESIGN.md §18, ReinFlow's ReFlow.sample grid)", () => {
  test('uniform: the net reads t_i = 1 − i/K', () => {
    expect(timeGrid(4).netTimes).toEqual([1, 0.75, 0.5, 0.25]);
  });

  test("reinflow: its time linspace(0, 1, K) = 0, 1/3, 2/3, 1 is our 1, 2/3, 1/3, 0, while the step stays δ = 1/4", () => {
    const grid = timeGrid(4, 'reinflow');
    expect(grid.delta).toBe(0.25);
    expect(grid.times).toEqual([1, 0.75, 0.5, 0.25, 0]);
    [1, 2 / 3, 1 / 3, 0].forEach((t, index) => expect(grid.netTimes[index]).toBeCloseTo(t, 15));
  });

  test('reinflow with K = 1: linspace(0, 1, 1) = [0], our t = 1', () => {
    expect(timeGrid(1, 'reinflow').netTimes).toEqual([1]);
  });
});
