import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { clipGradients, globalNorm } from './grad-clip';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

async function values(grads: tf.NamedTensorMap): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const [name, tensor] of Object.entries(grads)) out[name] = Array.from(await tensor.data());
  return out;
}

describe('global grad-norm clipping', () => {
  it('scales all gradients by maxNorm/‖g‖ when above the limit (hand case)', async () => {
    // ‖g‖ = sqrt(3² + 4² + 12²) = 13; maxNorm 6.5 → scale 0.5.
    const grads = { a: tf.tensor1d([3, 4]), b: tf.tensor2d([[12]]) };
    const result = await clipGradients(grads, 6.5);
    expect(result.gradNorm).toBeCloseTo(13, 5);
    expect(result.finite).toBe(true);
    expect(await values(result.grads)).toEqual({ a: [1.5, 2], b: [6] });
    expect(result.grads.b.shape).toEqual([1, 1]);
    // Below the limit nothing changes; Infinity turns clipping off.
    expect(await values((await clipGradients(grads, 20)).grads)).toEqual({ a: [3, 4], b: [12] });
    expect(await values((await clipGradients(grads, Infinity)).grads)).toEqual({ a: [3, 4], b: [12] });
  });

  it('matches a float64 norm on random gradients and does not overflow on large ones', async () => {
    const rng = createRng(4);
    const arrays = [120, 33, 7].map((size) => Float32Array.from({ length: size }, () => rng.normal()));
    const expected = Math.sqrt(arrays.reduce((sum, array) => sum + array.reduce((inner, value) => inner + value * value, 0), 0));
    const tensors = arrays.map((array) => tf.tensor1d(array));
    expect((await globalNorm(tensors).data())[0]).toBeCloseTo(expected, 4);
    // 1e20² overflows float32, but the scaled form gives sqrt(2)·1e20.
    const large = await clipGradients({ big: tf.tensor1d([1e20, 1e20]) }, 1);
    expect(large.gradNorm / (Math.SQRT2 * 1e20)).toBeCloseTo(1, 5);
    expect(large.finite).toBe(true);
  });

  it('flags NaN and Infinity as non-finite', async () => {
    expect((await clipGradients({ a: tf.tensor1d([1, NaN]) }, 1)).finite).toBe(false);
    const infinite = await clipGradients({ a: tf.tensor1d([1]), b: tf.tensor1d([-Infinity]) }, 1);
    expect(infinite.finite).toBe(false);
    expect(Number.isFinite(infinite.gradNorm)).toBe(false);
  });

  it('keeps the tensor count flat apart from the returned gradients and rejects a bad limit', async () => {
    const grads = { a: tf.tensor1d([3, 4]) };
    const before = tf.memory().numTensors;
    for (let repeat = 0; repeat < 3; repeat++) tf.dispose(Object.values((await clipGradients(grads, 1)).grads));
    expect(tf.memory().numTensors).toBe(before);
    await expect(clipGradients(grads, 0)).rejects.toThrow('max_grad_norm must be positive (or Infinity to turn clipping off), got 0');
  });
});
