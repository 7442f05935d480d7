import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { NamedAdam, type AdamOptions } from '../rl/adam';
import { ADAM_KERNEL, registerWasmAdamKernel } from './adam-kernel';
import { adamModuleBytes } from './simd-adam';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

afterEach(() => {
  registerWasmAdamKernel();
});

/** Shapes with runs of four and tails of 1–3 floats, in one flat moment vector. */
const SHAPES: [string, number[]][] = [['a.kernel', [5, 7]], ['a.bias', [3]], ['b.kernel', [4, 4]], ['c', [1]], ['d', [2, 3, 2]]];

/** Five steps of NamedAdam on fresh copies of the same parameters and gradients; the parameters, m and v after, and how far the parameters moved. */
async function fiveSteps(options: AdamOptions): Promise<{ values: number[]; moved: number }> {
  const rng = createRng(3);
  const initial = SHAPES.map(([, shape]) => rng.fillNormal(new Float32Array(shape.reduce((x, y) => x * y, 1))));
  const variables = new Map(SHAPES.map(([name, shape], index) => [name, tf.variable(tf.tensor(initial[index], shape))]));
  const adam = new NamedAdam(options);
  for (let step = 0; step < 5; step++) {
    // Gradients of mixed scale, one parameter left out on step 3 (the moments re-pack around it).
    const grads = new Map([...variables].filter(([name]) => step !== 3 || name !== 'c').map(([name, variable]) => [name, tf.tensor(rng.fillNormal(new Float32Array(variable.size)).map((value, index) => value * 10 ** ((index % 5) - 2)), variable.shape)]));
    adam.apply(variables, grads, 0.01 * (step + 1));
    tf.dispose([...grads.values()]);
  }
  const state = await adam.getState();
  const values: number[] = [];
  let moved = 0;
  for (const [index, [name, variable]] of [...variables].entries()) {
    const after = (await variable.data()) as Float32Array;
    after.forEach((value, offset) => (moved = Math.max(moved, Math.abs(value - initial[index][offset]))));
    values.push(...after, ...state.slots.get(name)!.m, ...state.slots.get(name)!.v);
  }
  adam.dispose();
  tf.dispose([...variables.values()]);
  return { values, moved };
}

describe('the wasm Adam step kernel', () => {
  test('its module validates', () => {
    expect(WebAssembly.validate(adamModuleBytes())).toBe(true);
  });

  test.each([
    ['Adam', { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0 }],
    ['AdamW', { beta1: 0.8, beta2: 0.99, epsilon: 1e-5, weightDecay: 0.01 }],
  ])('%s gives the tensor ops\' parameters and moments bit for bit', async (_, options) => {
    expect(tf.getKernel(ADAM_KERNEL, 'wasm')).toBeDefined();
    const fused = await fiveSteps(options);
    tf.unregisterKernel(ADAM_KERNEL, 'wasm');
    const tensorOps = await fiveSteps(options);
    // 5·7 + 3 + 4·4 + 1 + 2·3·2 = 67 parameters, each with m and v.
    expect(fused.values.length).toBe(3 * 67);
    expect(fused.values).toEqual(tensorOps.values);
    // Five steps of lr 0.01–0.05 moved the parameters: two untouched sets would agree trivially.
    expect(fused.moved).toBeGreaterThan(0.05);
  });

  test('a gradient whose size is not its parameter\'s is refused, naming both', () => {
    const variables = new Map([['w', tf.variable(tf.zeros([2, 3]))]]);
    const adam = new NamedAdam();
    const grad = tf.ones([5]);
    expect(() => adam.apply(variables, new Map([['w', grad]]), 0.1)).toThrow('Adam step: gradient 0 is float32 [5], its parameter float32 [2,3]');
    tf.dispose([grad, ...variables.values()]);
    adam.dispose();
  });
});
