import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { NamedAdam } from './adam';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('NamedAdam', () => {
  it('matches a float64 Adam reference over three steps', async () => {
    // θ0 = [1, -2], g = 2θ (loss θ²), lr = 0.1, β1 = 0.9, β2 = 0.999, ε = 1e-8.
    // Step 1: g = [2, -4]; m = 0.1·g = [0.2, -0.4]; v = 0.001·g² = [0.004, 0.016];
    //   m̂ = m/0.1 = g, v̂ = v/0.001 = g², so the update is lr·sign(g) = [0.1, -0.1] → θ1 = [0.9, -1.9].
    const theta = tf.variable(tf.tensor1d([1, -2]));
    const adam = new NamedAdam({ beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0 });
    const variables = new Map([['w', theta]]);
    const reference = [1, -2];
    const m = [0, 0];
    const v = [0, 0];
    for (let step = 1; step <= 3; step++) {
      const grad = tf.mul(theta, 2);
      adam.apply(variables, new Map([['w', grad]]), 0.1);
      grad.dispose();
      for (let i = 0; i < 2; i++) {
        const g = 2 * reference[i];
        m[i] = 0.9 * m[i] + 0.1 * g;
        v[i] = 0.999 * v[i] + 0.001 * g * g;
        reference[i] -= (0.1 * (m[i] / (1 - 0.9 ** step))) / (Math.sqrt(v[i] / (1 - 0.999 ** step)) + 1e-8);
      }
      if (step === 1) expect(Array.from(await theta.data())).toEqual([expect.closeTo(0.9, 6), expect.closeTo(-1.9, 6)]);
    }
    const values = await theta.data();
    for (let i = 0; i < 2; i++) expect(values[i]).toBeCloseTo(reference[i], 5);
    adam.dispose();
    theta.dispose();
  });

  it('restores its state so the next step is identical', async () => {
    const make = () => tf.variable(tf.tensor1d([0.5, 1.5, -1]));
    const a = make();
    const adam = new NamedAdam();
    const grad = tf.tensor1d([0.3, -0.2, 0.1]);
    adam.apply(new Map([['w', a]]), new Map([['w', grad]]), 0.01);
    const state = await adam.getState();
    const b = tf.variable(tf.tensor(await a.data()));
    const restored = new NamedAdam();
    restored.setState(state, new Map([['w', b]]));
    adam.apply(new Map([['w', a]]), new Map([['w', grad]]), 0.01);
    restored.apply(new Map([['w', b]]), new Map([['w', grad]]), 0.01);
    expect(Array.from(await b.data())).toEqual(Array.from(await a.data()));
    expect(restored.step).toBe(2);
    tf.dispose([a, b, grad]);
    adam.dispose();
    restored.dispose();
  });

  it('applies decoupled weight decay and rejects bad state', async () => {
    // Zero gradient: the Adam term is 0, so θ ← θ − lr·wd·θ = 2 − 0.1·0.5·2 = 1.9.
    const theta = tf.variable(tf.tensor1d([2]));
    const adam = new NamedAdam({ beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0.5 });
    const zero = tf.zeros([1]);
    adam.apply(new Map([['w', theta]]), new Map([['w', zero]]), 0.1);
    expect((await theta.data())[0]).toBeCloseTo(1.9, 6);
    expect(() => adam.setState({ step: 1, slots: new Map([['w', { m: new Float32Array(3), v: new Float32Array(3) }]]) }, new Map([['w', theta]]))).toThrow(
      "optimizer state for 'w' has 3 values, expected 1",
    );
    expect(() => new NamedAdam({ beta1: 1, beta2: 0.9, epsilon: 1e-8, weightDecay: 0 })).toThrow(/beta1/);
    tf.dispose([theta, zero]);
    adam.dispose();
  });
});
