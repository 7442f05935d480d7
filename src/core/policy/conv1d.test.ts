import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng, type Rng } from '../random';
import { conv1d, downsample1d, upsample1d } from './conv1d';
import { convRef, convTransposeRef, type Rows } from './fixtures/unet1d-reference';
import type { WeightEntry } from './weight-check';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

type Layer = (param: (name: string) => tf.Tensor, prefix: string, x: tf.Tensor3D) => tf.Tensor3D;

/** Runs `layer` on x [B, L, C] with the weights `kernel`/`bias` under prefix 'conv' → rows per sample. */
async function run(layer: Layer, weights: Map<string, WeightEntry>, x: Float32Array, shape: [number, number, number]): Promise<Float32Array> {
  const tensors = new Map([...weights].map(([name, entry]) => [name, tf.tensor(entry.data, entry.shape)]));
  const out = tf.tidy(() => layer((name) => tensors.get(name)!, 'conv', tf.tensor3d(x, shape)));
  const values = (await out.data()) as Float32Array;
  tf.dispose([out, ...tensors.values()]);
  return values;
}

function randomWeights(rng: Rng, kernelShape: number[]): Map<string, WeightEntry> {
  const size = kernelShape.reduce((a, b) => a * b, 1);
  return new Map([
    ['conv.kernel', { shape: kernelShape, data: rng.fillNormal(new Float32Array(size)) }],
    ['conv.bias', { shape: [kernelShape[2]], data: rng.fillNormal(new Float32Array(kernelShape[2])) }],
  ]);
}

const rowsOf = (data: Float32Array, sample: number, length: number, channels: number): Rows =>
  Array.from({ length }, (_, l) => Array.from(data.subarray((sample * length + l) * channels, (sample * length + l + 1) * channels)));

const hand = (kernel: number[], bias: number) => new Map<string, WeightEntry>([
  ['conv.kernel', { shape: [kernel.length, 1, 1], data: Float32Array.from(kernel) }],
  ['conv.bias', { shape: [1], data: Float32Array.of(bias) }],
]);

describe('same-padded conv1d', () => {
  test('hand example: k = 3, one channel', async () => {
    // x = [1, 2, 3], K = [1, 10, 100], b = 0.5; y[l] = 0.5 + x[l−1]·1 + x[l]·10 + x[l+1]·100, x = 0 outside:
    // y[0] = 0.5 + 0 + 10 + 200 = 210.5; y[1] = 0.5 + 1 + 20 + 300 = 321.5; y[2] = 0.5 + 2 + 30 + 0 = 32.5
    const out = await run(conv1d, hand([1, 10, 100], 0.5), Float32Array.of(1, 2, 3), [1, 3, 1]);
    expect(Array.from(out)).toEqual([210.5, 321.5, 32.5]);
  });

  test('fresh random inputs against the float64 torch-style reference (k = 1, 3, 5; L shorter than k too)', async () => {
    const rng = createRng(5);
    for (const [taps, length, inC, outC] of [[1, 4, 3, 2], [3, 6, 2, 5], [5, 8, 4, 3], [5, 2, 3, 2]]) {
      const weights = randomWeights(rng, [taps, inC, outC]);
      const x = rng.fillNormal(new Float32Array(2 * length * inC));
      const out = await run(conv1d, weights, x, [2, length, inC]);
      for (let sample = 0; sample < 2; sample++) {
        convRef(weights, 'conv', rowsOf(x, sample, length, inC)).flat()
          .forEach((value, offset) => expect(out[sample * length * outC + offset]).toBeCloseTo(value, 4));
      }
    }
  });
});

describe('down-sampling: strided conv (k 3, stride 2, padding 1)', () => {
  test('hand example', async () => {
    // x = [1, 2, 3, 4], K = [1, 10, 100], b = 0: y[j] = x[2j−1]·1 + x[2j]·10 + x[2j+1]·100
    // y[0] = 0 + 10 + 200 = 210; y[1] = 2 + 30 + 400 = 432
    const out = await run(downsample1d, hand([1, 10, 100], 0), Float32Array.of(1, 2, 3, 4), [1, 4, 1]);
    expect(Array.from(out)).toEqual([210, 432]);
  });

  test('fresh random inputs against the reference', async () => {
    const rng = createRng(6);
    for (const [length, channels] of [[2, 3], [8, 4]]) {
      const weights = randomWeights(rng, [3, channels, channels]);
      const x = rng.fillNormal(new Float32Array(3 * length * channels));
      const out = await run(downsample1d, weights, x, [3, length, channels]);
      for (let sample = 0; sample < 3; sample++) {
        const expected = convRef(weights, 'conv', rowsOf(x, sample, length, channels), 2, 1);
        expect(expected.length).toBe(length / 2);
        expected.flat().forEach((value, offset) => expect(out[(sample * length * channels) / 2 + offset]).toBeCloseTo(value, 4));
      }
    }
  });
});

describe('up-sampling: transposed conv (k 4, stride 2, padding 1)', () => {
  test('hand example', async () => {
    // x = [1, 2], K = [1, 10, 100, 1000], b = 0; output o reads input i with tap o + 1 − 2i:
    // y[0] = x[0]·K₁ = 10; y[1] = x[1]·K₀ + x[0]·K₂ = 2 + 100 = 102;
    // y[2] = x[1]·K₁ + x[0]·K₃ = 20 + 1000 = 1020; y[3] = x[1]·K₂ = 200
    const out = await run(upsample1d, hand([1, 10, 100, 1000], 0), Float32Array.of(1, 2), [1, 2, 1]);
    expect(Array.from(out)).toEqual([10, 102, 1020, 200]);
  });

  test('fresh random inputs against the reference', async () => {
    const rng = createRng(7);
    for (const [length, channels] of [[1, 2], [4, 3]]) {
      const weights = randomWeights(rng, [4, channels, channels]);
      const x = rng.fillNormal(new Float32Array(2 * length * channels));
      const out = await run(upsample1d, weights, x, [2, length, channels]);
      for (let sample = 0; sample < 2; sample++) {
        const expected = convTransposeRef(weights, 'conv', rowsOf(x, sample, length, channels));
        expect(expected.length).toBe(2 * length);
        expected.flat().forEach((value, offset) => expect(out[sample * 2 * length * channels + offset]).toBeCloseTo(value, 4));
      }
    }
  });
});

describe('gradients of the three convolutions', () => {
  // Each layer is affine in x and linear in its kernel, so for L = Σ y ⊙ W and directions u (of x) and v (of the
  // kernel): ⟨dL/dx, u⟩ = Σ ref(u; kernel, no bias) ⊙ W and ⟨dL/dkernel, v⟩ = Σ ref(x; kernel v, no bias) ⊙ W.
  const cases: Array<[string, Layer, number[], number, (weights: Map<string, WeightEntry>, x: Rows) => Rows]> = [
    ['conv1d k 5', conv1d, [5, 3, 2], 6, (weights, x) => convRef(weights, 'conv', x)],
    ['downsample', downsample1d, [3, 3, 3], 6, (weights, x) => convRef(weights, 'conv', x, 2, 1)],
    ['upsample', upsample1d, [4, 3, 3], 3, (weights, x) => convTransposeRef(weights, 'conv', x)],
  ];
  for (const [name, layer, kernelShape, length, reference] of cases) {
    test(`${name}: dL/dx and dL/dkernel along random directions match the reference`, async () => {
      const rng = createRng(kernelShape[0] + length);
      const weights = randomWeights(rng, kernelShape);
      const [inC, outC] = [kernelShape[1], kernelShape[2]];
      const x = rng.fillNormal(new Float32Array(2 * length * inC));
      const outLength = reference(weights, rowsOf(x, 0, length, inC)).length;
      const outWeight = rng.fillNormal(new Float32Array(2 * outLength * outC));
      const kernel = tf.tensor(weights.get('conv.kernel')!.data, kernelShape);
      const bias = tf.tensor1d(weights.get('conv.bias')!.data);
      const loss = (input: tf.Tensor, k: tf.Tensor) =>
        tf.sum(tf.mul(layer((param) => (param === 'conv.kernel' ? k : bias), 'conv', input as tf.Tensor3D), tf.tensor3d(outWeight, [2, outLength, outC])));
      const [dx, dKernel] = tf.grads(loss)([tf.tensor3d(x, [2, length, inC]), kernel]);
      const [dxData, dKernelData] = [await dx.data(), await dKernel.data()];
      const noBias = { shape: [outC], data: new Float32Array(outC) };
      const weighted = (w: Map<string, WeightEntry>, input: Float32Array) => [0, 1].reduce((total, sample) =>
        total + reference(w, rowsOf(input, sample, length, inC)).flat().reduce((sum, value, offset) => sum + value * outWeight[sample * outLength * outC + offset], 0), 0);
      const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((sum, value, offset) => sum + value * b[offset], 0);
      const u = rng.fillNormal(new Float32Array(x.length));
      expect(dot(dxData, u)).toBeCloseTo(weighted(new Map([...weights, ['conv.bias', noBias]]), u), 3);
      const v = rng.fillNormal(new Float32Array(kernel.size));
      expect(dot(dKernelData, v)).toBeCloseTo(weighted(new Map([['conv.kernel', { shape: kernelShape, data: v }], ['conv.bias', noBias]]), x), 3);
      tf.dispose([dx, dKernel, kernel, bias]);
    });
  }
});
