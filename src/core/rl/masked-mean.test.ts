import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { maskedMaxTf, maskedMean, maskedMeanTf } from './masked-mean';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('maskedMean (plain)', () => {
  it('averages only valid entries (hand case) and never reads masked ones', () => {
    // (2 + 4 + 9) / 3 = 5; the masked NaN is skipped.
    expect(maskedMean(Float32Array.of(2, NaN, 4, 9), Float32Array.of(1, 0, 1, 1))).toBe(5);
    expect(maskedMean(Float32Array.of(1, 2, 3, 4))).toBe(2.5);
    expect(maskedMean(Float32Array.of(1, 2), Float32Array.of(0, 0))).toBe(0);
    expect(() => maskedMean(Float32Array.of(1, 2), Float32Array.of(1))).toThrow('mask has length 1, expected values.length = 2');
  });
});

describe('maskedMeanTf', () => {
  it('broadcasts a [B] mask over [B, Ta, Ae] and counts each element once', async () => {
    // B = 3, Ta = 2, Ae = 2: sample 1 masked (NaN inside). Valid elements: 0..3 and 8..11.
    // Sum = (0+1+2+3) + (8+9+10+11) = 44, count 8 → 5.5.
    const values = Array.from({ length: 12 }, (_, index) => (index >= 4 && index < 8 ? NaN : index));
    const mean = maskedMeanTf(tf.tensor3d(values, [3, 2, 2]), tf.tensor1d([1, 0, 1]));
    expect((await mean.data())[0]).toBeCloseTo(5.5, 6);
    const max = maskedMaxTf(tf.tensor3d(values, [3, 2, 2]), tf.tensor1d([1, 0, 1]));
    expect((await max.data())[0]).toBe(11);
  });

  it('matches the plain float64 masked mean on random data and has gradient mask/count', async () => {
    const rng = createRng(3);
    const values = Float32Array.from({ length: 30 }, () => rng.normal());
    const mask = Float32Array.from({ length: 30 }, () => (rng.uniform() < 0.6 ? 1 : 0));
    const count = mask.reduce((a, b) => a + b, 0);
    const valuesVar = tf.variable(tf.tensor1d(values));
    const maskTensor = tf.tensor1d(mask);
    const { value, grads } = tf.variableGrads(() => maskedMeanTf(valuesVar, maskTensor), [valuesVar]);
    expect((await value.data())[0]).toBeCloseTo(maskedMean(values, mask), 5);
    const gradient = await grads[valuesVar.name].data();
    mask.forEach((keep, index) => expect(gradient[index]).toBeCloseTo(keep / count, 6));
    tf.dispose([valuesVar, maskTensor, value, grads[valuesVar.name]]);
  });

  it('rejects a mask that is not a leading prefix of the values shape', () => {
    expect(() => maskedMeanTf(tf.zeros([3, 2]), tf.zeros([2]))).toThrow('mask has shape [2], expected [3,2] or a leading prefix of it');
  });
});
