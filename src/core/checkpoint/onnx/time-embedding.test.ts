import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../../cli/node-backend';
import { timeGrid } from '../../flow/time-grid';
import { sinusoidalEmbedding } from '../../policy/time-embedding';
import { stepEmbeddingValues, timeEmbeddingValues } from './time-embedding';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('timeEmbeddingValues (the step conditioning baked into the graph)', () => {
  it('t = 0.5, dim 4: frequencies 1 and 1/100, angles 500 and 5', () => {
    // f_j = exp(−ln(10000)·j/2): f_0 = 1, f_1 = 10000^(−1/2) = 0.01; 1000·0.5 = 500.
    // The float32 angles are 500 and fround(500·fround(0.01)) = 5.000000237..., so cos(5) ≈ 0.2836622.
    const values = timeEmbeddingValues(0.5, 4);
    expect(values[0]).toBeCloseTo(Math.sin(500), 6);
    expect(values[1]).toBeCloseTo(Math.sin(5), 6);
    expect(values[3]).toBeCloseTo(0.2836622, 6);
  });

  it('matches the tfjs sinusoidal embedding on every grid time, to float32 rounding', () => {
    // Ours are sin and cos of the same float32 angles, rounded once; the wasm backend's float32
    // sin and cos are off by up to about 3e-7 at angles of tens of radians.
    for (const steps of [1, 3, 4, 7, 16]) {
      const { times, delta } = timeGrid(steps);
      const grid = [...times.slice(0, steps), delta];
      const expected = tf.tidy(() => sinusoidalEmbedding(tf.tensor1d(grid), 32).dataSync());
      grid.forEach((t, row) => {
        const values = timeEmbeddingValues(t, 32);
        values.forEach((value, column) => expect(Math.abs(value - expected[row * 32 + column])).toBeLessThan(5e-7));
      });
    }
  });

  it('rounds the angle to float32 first, as the tensor ops do; the exact angle would be off by up to ~3e-5', () => {
    // t = 2/3: fround(t)·1000 = 666.6666865..., whose float32 neighbours are 6.1e-5 apart.
    const t = 2 / 3;
    const exact = Math.sin(1000 * t);
    const rounded = timeEmbeddingValues(t, 2)[0];
    expect(Math.abs(rounded - Math.sin(Math.fround(Math.fround(t) * 1000)))).toBeLessThan(1e-7);
    expect(Math.abs(rounded - exact)).toBeGreaterThan(1e-6);
  });

  it('appends emb(d) only with the shortcut input', () => {
    expect(stepEmbeddingValues(0.75, 0.25, 8, false)).toEqual(timeEmbeddingValues(0.75, 8));
    const both = stepEmbeddingValues(0.75, 0.25, 8, true);
    expect([...both.slice(8)]).toEqual([...timeEmbeddingValues(0.25, 8)]);
  });
});
