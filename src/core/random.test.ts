import { describe, expect, it } from 'vitest';
import { createRng, restoreRng } from './random';

describe('createRng', () => {
  it('repeats the same stream for the same seed and differs across seeds', () => {
    const first = createRng(7);
    const again = createRng(7);
    const other = createRng(8);
    const a = Array.from({ length: 16 }, () => first.uniform());
    const b = Array.from({ length: 16 }, () => again.uniform());
    const c = Array.from({ length: 16 }, () => other.uniform());
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('gives uniform samples in [0, 1) with mean 1/2 and variance 1/12', () => {
    const rng = createRng(1);
    const n = 200_000;
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < n; i++) {
      const u = rng.uniform();
      expect(u >= 0 && u < 1).toBe(true);
      sum += u;
      sumSq += u * u;
    }
    const mean = sum / n;
    // Standard error of the mean is sqrt(1/12 / n) ≈ 6.5e-4; allow 5 of them.
    expect(Math.abs(mean - 0.5)).toBeLessThan(3.3e-3);
    expect(Math.abs(sumSq / n - mean * mean - 1 / 12)).toBeLessThan(2e-3);
  });

  it('gives standard normal samples (mean 0, std 1, symmetric tails)', () => {
    const rng = createRng(2);
    const samples = rng.fillNormal(new Float32Array(200_000));
    let sum = 0;
    let sumSq = 0;
    let beyondTwo = 0;
    for (const x of samples) {
      sum += x;
      sumSq += x * x;
      if (Math.abs(x) > 2) beyondTwo++;
    }
    const mean = sum / samples.length;
    const std = Math.sqrt(sumSq / samples.length - mean * mean);
    expect(Math.abs(mean)).toBeLessThan(0.012);
    expect(Math.abs(std - 1)).toBeLessThan(0.01);
    // P(|x| > 2) = 0.0455 for N(0, 1).
    expect(Math.abs(beyondTwo / samples.length - 0.0455)).toBeLessThan(0.003);
  });

  it('draws integers in range and rejects a non-finite seed', () => {
    const rng = createRng(3);
    const counts = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) counts[rng.int(3)]++;
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
    expect(() => createRng(Number.NaN)).toThrow(/seed/);
  });

  it('forks into an independent stream', () => {
    const parent = createRng(4);
    const child = parent.fork();
    expect(child.uniform()).not.toBe(parent.uniform());
  });
});

describe('restoreRng', () => {
  it('continues a stream exactly from its saved state, including a pending Box-Muller spare', () => {
    const original = createRng(42);
    for (let draw = 0; draw < 5; draw++) original.uniform();
    // One normal() leaves the second Box-Muller value pending.
    original.normal();
    const saved = JSON.parse(JSON.stringify(original.state()));
    const resumed = restoreRng(saved);
    const expected = [original.normal(), original.uniform(), original.normal(), original.int(1000)];
    expect([resumed.normal(), resumed.uniform(), resumed.normal(), resumed.int(1000)]).toEqual(expected);
  });

  it('refuses a malformed state', () => {
    expect(() => restoreRng({ words: [1, 2, 3] as unknown as [number, number, number, number], spareNormal: null })).toThrow(/four 32-bit integers/);
    expect(() => restoreRng({ words: [1, 2, 3, 4], spareNormal: NaN })).toThrow(/spareNormal/);
  });
});
