import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { mishRef } from './fixtures/unet1d-reference';
import { mish } from './mish';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('Mish', () => {
  test('hand values, the large-|x| tails and fresh random inputs against x·tanh(log(1 + eˣ)) in float64', async () => {
    // mish(1) = tanh(ln(1 + e)) = tanh(1.3132617) = 0.8650984; mish(−1) = −tanh(ln(1 + 1/e)) = −tanh(0.3132617) = −0.3034015;
    // mish(30) = 30 (tanh(30) = 1 in float32); mish(−30) = −30·tanh(e^−30) ≈ −2.8e−12.
    const rng = createRng(3);
    const inputs = [1, -1, 0, 30, -30, ...Array.from({ length: 40 }, () => 4 * rng.normal())];
    const out = tf.tidy(() => mish(tf.tensor1d(inputs)));
    const values = await out.data();
    expect(values[0]).toBeCloseTo(0.8650984, 6);
    expect(values[1]).toBeCloseTo(-0.3034015, 6);
    expect(values[2]).toBe(0);
    expect(values[3]).toBe(30);
    expect(Math.abs(values[4])).toBeLessThan(1e-10);
    inputs.forEach((x, offset) => expect(values[offset]).toBeCloseTo(mishRef(x), 5));
    out.dispose();
  });

  test('gradient: hand value at 1 and central differences of the float64 reference elsewhere', async () => {
    // dmish/dx = tanh(sp) + x·(1 − tanh²(sp))·σ(x), sp = softplus(x); at 1: 0.8650984 + (1 − 0.7483952)·0.7310586 = 1.0490362
    const rng = createRng(4);
    const inputs = [1, ...Array.from({ length: 30 }, () => 3 * rng.normal())];
    const grad = tf.tidy(() => tf.grad((x: tf.Tensor) => tf.sum(mish(x)))(tf.tensor1d(inputs)));
    const values = await grad.data();
    expect(values[0]).toBeCloseTo(1.0490362, 5);
    inputs.forEach((x, offset) => expect(values[offset]).toBeCloseTo((mishRef(x + 1e-6) - mishRef(x - 1e-6)) / 2e-6, 4));
    grad.dispose();
  });
});
