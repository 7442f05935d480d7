import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { MinMaxNormalizer } from './normalizer';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('min/max normalizer', () => {
  test('hand values map [min, max] to [-1, 1]', () => {
    // feature 0: [0, 10] → center 5, half range 5: 0 → −1, 10 → 1, 2.5 → −0.5
    // feature 1: [-2, 2] → center 0, half range 2: 1 → 0.5
    const normalizer = new MinMaxNormalizer({ min: [0, -2], max: [10, 2] });
    expect(Array.from(normalizer.normalize(Float32Array.from([0, -2, 10, 2, 2.5, 1])))).toEqual([-1, -1, 1, 1, -0.5, 0.5]);
    expect(Array.from(normalizer.unnormalize(Float32Array.from([-1, 1, 0, 0.5])))).toEqual([0, 2, 5, 1]);
  });

  test('a zero range neither divides by zero nor moves the constant', () => {
    const normalizer = new MinMaxNormalizer({ min: [3, 0], max: [3, 4] });
    const normalized = normalizer.normalize(Float32Array.from([3, 4]));
    expect(Array.from(normalized)).toEqual([0, 1]);
    expect(Array.from(normalizer.unnormalize(Float32Array.from([0.7, 1])))).toEqual([3, 4]);
  });

  test('fit, round trip, JSON and the tensor path agree with float64 on fresh data', async () => {
    const rng = createRng(4);
    const dim = 3;
    const data = Float32Array.from({ length: 60 }, () => 5 * rng.normal() + 2);
    const normalizer = MinMaxNormalizer.fit(data, dim);
    const restored = new MinMaxNormalizer(JSON.parse(JSON.stringify(normalizer.toJSON())));
    const normalized = restored.normalize(data);
    for (let offset = 0; offset < data.length; offset++) {
      const lo = normalizer.stats.min[offset % dim];
      const hi = normalizer.stats.max[offset % dim];
      expect(normalized[offset]).toBeCloseTo((2 * (data[offset] - lo)) / (hi - lo) - 1, 5);
      expect(normalized[offset]).toBeGreaterThanOrEqual(-1 - 1e-6);
      expect(normalized[offset]).toBeLessThanOrEqual(1 + 1e-6);
    }
    const back = restored.unnormalize(normalized);
    back.forEach((value, offset) => expect(value).toBeCloseTo(data[offset], 4));
    const tensor = tf.tensor2d(data, [20, dim]);
    const viaTensor = restored.normalizeTensor(tensor);
    const roundTrip = restored.unnormalizeTensor(viaTensor);
    (await viaTensor.data()).forEach((value, offset) => expect(value).toBeCloseTo(normalized[offset], 5));
    (await roundTrip.data()).forEach((value, offset) => expect(value).toBeCloseTo(data[offset], 4));
    tf.dispose([tensor, viaTensor, roundTrip]);
  });

  test('a clip clamps normalized values to ±clip, on both paths, never in unnormalize, and survives JSON', async () => {
    // feature 0: [0, 10] → center 5, half range 5: 40 → 7 → clamped to 2; −20 → −5 → −2; 7.5 → 0.5 stays
    // feature 1: [-2, 2] → center 0, half range 2: 3 → 1.5 stays; −9 → −4.5 → −2
    const clipped = new MinMaxNormalizer({ min: [0, -2], max: [10, 2] }).withClip(2);
    const raw = Float32Array.from([40, 3, -20, -9, 7.5, 1]);
    expect(Array.from(clipped.normalize(raw))).toEqual([2, 1.5, -2, -2, 0.5, 0.5]);
    // unnormalize maps ±5 (out of the clip) back to 5 ± 25 and 0 ± 10, unclamped: the clip is on observations read in.
    expect(Array.from(clipped.unnormalize(Float32Array.from([5, -5])))).toEqual([30, -10]);
    const tensor = tf.tensor2d(raw, [3, 2]);
    const viaTensor = clipped.normalizeTensor(tensor);
    expect(Array.from(await viaTensor.data())).toEqual([2, 1.5, -2, -2, 0.5, 0.5]);
    tf.dispose([tensor, viaTensor]);
    const json = JSON.parse(JSON.stringify(clipped.toJSON()));
    expect(json).toEqual({ min: [0, -2], max: [10, 2], clip: 2 });
    expect(new MinMaxNormalizer(json).clip).toBe(2);
    // withClip(undefined) drops it; the same clip returns the normalizer itself.
    const unclipped = clipped.withClip(undefined);
    expect(unclipped.toJSON()).toEqual({ min: [0, -2], max: [10, 2] });
    expect(Array.from(unclipped.normalize(raw))).toEqual([7, 1.5, -5, -4.5, 0.5, 0.5]);
    expect(clipped.withClip(2)).toBe(clipped);
  });

  test('a clip that is not a positive number is refused, naming the field', () => {
    for (const clip of [0, -1, Number.NaN, Infinity, '5' as unknown as number, null as unknown as number]) {
      expect(() => new MinMaxNormalizer({ min: [0], max: [1], clip }, 'obs_normalizer'))
        .toThrow(expect.objectContaining({ name: 'ConfigError', field: 'obs_normalizer', message: `obs_normalizer.clip must be a positive number when set, got ${clip}` }));
    }
  });

  test('bad stats and inputs throw named errors naming the field', () => {
    expect(() => new MinMaxNormalizer({ min: [0, 1], max: [1] }, 'action_norm')).toThrow(expect.objectContaining({ name: 'ShapeError', field: 'action_norm' }));
    expect(() => new MinMaxNormalizer({ min: [2], max: [1] }, 'obs_norm')).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'obs_norm' }));
    const normalizer = new MinMaxNormalizer({ min: [0, 0], max: [1, 1] }, 'obs_norm');
    expect(() => normalizer.normalize(new Float32Array(3))).toThrow(/obs_norm input length 3 is not a multiple of its dim 2/);
    const wrong = tf.zeros([2, 3]);
    expect(() => normalizer.normalizeTensor(wrong)).toThrow(expect.objectContaining({ name: 'ShapeError' }));
    wrong.dispose();
  });
});
