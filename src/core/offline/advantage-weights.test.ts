import { describe, expect, it } from 'vitest';
import { createRng } from '../random';
import { ADVANTAGE_STD_EPSILON, advantageWeights } from './advantage-weights';

/** The config's defaults, offline.beta and offline.w_max. */
const AWR = { beta: 1, maxWeight: 20 };

/** Plain float64 reference: standardize, exp(Â/β), cap at w_max, scale to mean 1. */
function reference(advantages: number[], beta: number, maxWeight: number): { weights: number[]; clipped: number[] } {
  const count = advantages.length;
  const mean = advantages.reduce((sum, value) => sum + value, 0) / count;
  const std = Math.sqrt(advantages.reduce((sum, value) => sum + (value - mean) ** 2, 0) / count);
  const raw = advantages.map((value) => Math.exp((value - mean) / (std + ADVANTAGE_STD_EPSILON) / beta));
  const capped = raw.map((value) => Math.min(value, maxWeight));
  const cappedMean = capped.reduce((sum, value) => sum + value, 0) / count;
  return { weights: capped.map((value) => value / cappedMean), clipped: raw.map((value) => (value > maxWeight ? 1 : 0)) };
}

describe('advantageWeights', () => {
  it('matches the hand arithmetic: standardize, β, clip at w_max, mean 1', () => {
    // A = [1, 2, 3, 6]: mean 3, deviations [-2, -1, 0, 3], variance 14/4 = 3.5, std 1.870829.
    // Â = [-1.069045, -0.534522, 0, 1.603567]; with β = 0.5, Â/β = [-2.138090, -1.069045, 0, 3.207135].
    // ln 20 = 2.995732 < 3.207135, so the last is capped: u = [0.117880, 0.343336, 1, 20], mean 5.365304.
    // w = u / 5.365304 = [0.021971, 0.063992, 0.186383, 3.727655]; Σw² = 13.9347, ESS/N = 4/13.9347 = 0.287053.
    const result = advantageWeights([1, 2, 3, 6], { beta: 0.5, maxWeight: 20 });
    expect(Array.from(result.weights)).toEqual([0.021971, 0.063992, 0.186383, 3.727655].map((value) => expect.closeTo(value, 5)));
    expect(Array.from(result.clipped)).toEqual([0, 0, 0, 1]);
    expect(result.advantageMean).toBeCloseTo(3, 12);
    expect(result.advantageStd).toBeCloseTo(1.870829, 6);
    expect(result.clipFraction).toBe(0.25);
    expect(result.weightMax).toBeCloseTo(3.727655, 5);
    expect(result.weightMin).toBeCloseTo(0.021971, 5);
    expect(result.effectiveFraction).toBeCloseTo(0.287053, 5);
  });

  it('matches the float64 reference on fresh random advantages for several β and w_max', () => {
    const rng = createRng(17);
    for (const [beta, maxWeight] of [[1, 20], [0.3, 20], [2, 5], [0.1, 100], [1, 1]]) {
      const advantages = Array.from({ length: 200 }, () => 3 * rng.normal() - 1.5 + (rng.uniform() < 0.1 ? 10 : 0));
      const expected = reference(advantages, beta, maxWeight);
      const result = advantageWeights(Float32Array.from(advantages), { beta, maxWeight });
      // Float32Array input rounds A to float32 first; the reference sees the same rounded values.
      const rounded = reference(Array.from(Float32Array.from(advantages)), beta, maxWeight);
      for (let sampleIndex = 0; sampleIndex < advantages.length; sampleIndex++) {
        expect(result.weights[sampleIndex]).toBeCloseTo(rounded.weights[sampleIndex], 5);
        expect(result.clipped[sampleIndex]).toBe(rounded.clipped[sampleIndex]);
        expect(Math.abs(rounded.weights[sampleIndex] - expected.weights[sampleIndex])).toBeLessThan(1e-4);
      }
      const mean = result.weights.reduce((sum, value) => sum + value, 0) / result.weights.length;
      expect(mean).toBeCloseTo(1, 5);
      expect(result.clipFraction).toBeCloseTo(rounded.clipped.reduce((sum, flag) => sum + flag, 0) / advantages.length, 12);
    }
  });

  it('depends on the advantages only through their standardized values (shift and scale free)', () => {
    const base = [0.5, -1, 2, 0, 3, -0.25];
    const moved = base.map((value) => 40 + 7 * value);
    const a = advantageWeights(base, AWR);
    const b = advantageWeights(moved, AWR);
    for (let sampleIndex = 0; sampleIndex < base.length; sampleIndex++) expect(b.weights[sampleIndex]).toBeCloseTo(a.weights[sampleIndex], 5);
  });

  it('orders the weights by advantage, and a larger β flattens them', () => {
    const advantages = [-2, -0.5, 0, 0.7, 1.5];
    const sharp = advantageWeights(advantages, { beta: 0.5, maxWeight: 1000 });
    const flat = advantageWeights(advantages, { beta: 4, maxWeight: 1000 });
    for (let sampleIndex = 1; sampleIndex < advantages.length; sampleIndex++) expect(sharp.weights[sampleIndex]).toBeGreaterThan(sharp.weights[sampleIndex - 1]);
    expect(flat.weightMax / flat.weightMin).toBeLessThan(sharp.weightMax / sharp.weightMin);
    // w_max / w_min = exp((Â_max − Â_min)/β) when nothing is capped.
    const std = Math.sqrt(advantages.reduce((sum, value) => sum + (value - -0.06) ** 2, 0) / 5);
    expect(sharp.weightMax / sharp.weightMin).toBeCloseTo(Math.exp(3.5 / std / 0.5), 3);
    expect(sharp.effectiveFraction).toBeLessThan(flat.effectiveFraction);
  });

  it('gives every sample weight 1 when all advantages are equal', () => {
    const result = advantageWeights([2.5, 2.5, 2.5], AWR);
    expect(Array.from(result.weights)).toEqual([1, 1, 1]);
    expect(result.clipFraction).toBe(0);
    expect(result.effectiveFraction).toBe(1);
  });

  it('names the bad option or sample', () => {
    expect(() => advantageWeights([1, 2], { beta: 0, maxWeight: 20 })).toThrow('beta must be a finite number > 0, got 0');
    expect(() => advantageWeights([1, 2], { beta: 1, maxWeight: 0.5 })).toThrow('w_max must be a finite number ≥ 1, got 0.5');
    expect(() => advantageWeights([], AWR)).toThrow('advantages must hold at least one sample, got none');
    expect(() => advantageWeights([1, NaN, 2], AWR)).toThrow('advantage 1 is NaN; every advantage must be finite');
  });
});
