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

  it('keeps each parameter\'s moments through steps that update different sets of parameters', async () => {
    // Float64 reference, one Adam per parameter: a parameter without a gradient keeps its moments
    // and value, while the shared step count t still advances (lr 0.05, β1 0.9, β2 0.999, ε 1e-8).
    const a = tf.variable(tf.tensor2d([[1, -1], [0.5, 2]]));
    const b = tf.variable(tf.tensor1d([3, -0.25, 0.75]));
    const variables = new Map<string, tf.Variable>([['a', a], ['b', b]]);
    const adam = new NamedAdam({ beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0 });
    const reference = { a: [1, -1, 0.5, 2], b: [3, -0.25, 0.75] };
    const moments = { a: { m: [0, 0, 0, 0], v: [0, 0, 0, 0] }, b: { m: [0, 0, 0], v: [0, 0, 0] } };
    const schedule: ('a' | 'b')[][] = [['a', 'b'], ['a'], ['b', 'a'], ['a', 'b']];
    for (const [index, names] of schedule.entries()) {
      const step = index + 1;
      const grads = new Map(names.map((name) => [name, tf.mul(variables.get(name)!, 2)] as const)); // g = 2θ
      if (index === 2) {
        // Round-trips the state mid-run, as a resumed run would.
        const state = await adam.getState();
        adam.setState(state, variables);
      }
      adam.apply(variables, grads, 0.05);
      tf.dispose([...grads.values()]);
      for (const name of names) {
        const theta = reference[name];
        theta.forEach((value, i) => {
          const g = 2 * value;
          moments[name].m[i] = 0.9 * moments[name].m[i] + 0.1 * g;
          moments[name].v[i] = 0.999 * moments[name].v[i] + 0.001 * g * g;
          theta[i] -= (0.05 * (moments[name].m[i] / (1 - 0.9 ** step))) / (Math.sqrt(moments[name].v[i] / (1 - 0.999 ** step)) + 1e-8);
        });
      }
    }
    expect(adam.step).toBe(4);
    Array.from(await a.data()).forEach((value, i) => expect(value).toBeCloseTo(reference.a[i], 5));
    Array.from(await b.data()).forEach((value, i) => expect(value).toBeCloseTo(reference.b[i], 5));
    const state = await adam.getState();
    expect([...state.slots.keys()].sort()).toEqual(['a', 'b']);
    Array.from(state.slots.get('b')!.m).forEach((value, i) => expect(value).toBeCloseTo(moments.b.m[i], 5));
    const before = tf.memory().numTensors;
    const grad = new Map<string, tf.Tensor>([['a', tf.onesLike(a)], ['b', tf.onesLike(b)]]);
    for (let repeat = 0; repeat < 3; repeat++) adam.apply(variables, grad, 0.01);
    expect(tf.memory().numTensors).toBe(before + 2);
    tf.dispose([a, b, ...grad.values()]);
    adam.dispose();
  });
});
