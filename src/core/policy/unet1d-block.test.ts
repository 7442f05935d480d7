import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng, type Rng } from '../random';
import { filmRef, mishRef, residualRef, type Rows } from './fixtures/unet1d-reference';
import { mish } from './mish';
import { film, residualBlock } from './unet1d-block';
import type { WeightEntry } from './weight-check';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const lookup = (weights: Map<string, WeightEntry>) => {
  const tensors = new Map([...weights].map(([name, entry]) => [name, tf.tensor(entry.data, entry.shape)]));
  return { param: (name: string) => tensors.get(name)!, dispose: () => tf.dispose([...tensors.values()]) };
};
const rowsOf = (data: Float32Array, sample: number, length: number, channels: number): Rows =>
  Array.from({ length }, (_, l) => Array.from(data.subarray((sample * length + l) * channels, (sample * length + l + 1) * channels)));

describe('FiLM', () => {
  test('hand example: per-channel scale and bias from Mish(cond)', async () => {
    // h = [[1, 2], [3, 4]], cond = [1], K = [[1, 0, 0, 1]], b = [2, 3, 0.5, −1]; Mish(1) = 0.8650984:
    // [scale | bias] = [2.8650984, 3 | 0.5, −0.1349016]; y[0] = [2.8650984·1 + 0.5, 3·2 − 0.1349016] = [3.3650984, 5.8650984],
    // y[1] = [2.8650984·3 + 0.5, 3·4 − 0.1349016] = [9.0952952, 11.8650984].
    const { param, dispose } = lookup(new Map([
      ['film.kernel', { shape: [1, 4], data: Float32Array.of(1, 0, 0, 1) }],
      ['film.bias', { shape: [4], data: Float32Array.of(2, 3, 0.5, -1) }],
    ]));
    const out = tf.tidy(() => film(param, 'film', tf.tensor3d([[[1, 2], [3, 4]]]), mish(tf.tensor2d([[1]])) as tf.Tensor2D));
    const values = await out.data();
    [3.3650984, 5.8650984, 9.0952952, 11.8650984].forEach((expected, offset) => expect(values[offset]).toBeCloseTo(expected, 5));
    expect(mishRef(1)).toBeCloseTo(0.8650984, 6);
    tf.dispose([out]);
    dispose();
  });

  test('fresh random inputs against the float64 reference, each sample its own modulation', async () => {
    const rng = createRng(12);
    const [batch, length, channels, condDim] = [3, 4, 5, 6];
    const weights = new Map<string, WeightEntry>([
      ['film.kernel', { shape: [condDim, 2 * channels], data: rng.fillNormal(new Float32Array(condDim * 2 * channels)) }],
      ['film.bias', { shape: [2 * channels], data: rng.fillNormal(new Float32Array(2 * channels)) }],
    ]);
    const { param, dispose } = lookup(weights);
    const h = rng.fillNormal(new Float32Array(batch * length * channels));
    const cond = rng.fillNormal(new Float32Array(batch * condDim));
    const out = tf.tidy(() => film(param, 'film', tf.tensor3d(h, [batch, length, channels]), mish(tf.tensor2d(cond, [batch, condDim])) as tf.Tensor2D));
    const values = await out.data();
    for (let sample = 0; sample < batch; sample++) {
      filmRef(weights, 'film', rowsOf(h, sample, length, channels), Array.from(cond.subarray(sample * condDim, (sample + 1) * condDim))).flat()
        .forEach((value, offset) => expect(values[sample * length * channels + offset]).toBeCloseTo(value, 4));
    }
    out.dispose();
    dispose();
  });
});

/** Random weights of one residual block under 'block' (in → out channels, k taps, cond width D). */
function blockWeights(rng: Rng, inC: number, outC: number, taps: number, condDim: number): Map<string, WeightEntry> {
  const weights = new Map<string, WeightEntry>();
  const add = (name: string, shape: number[], scale = 0.5, offset = 0) => weights.set(name, { shape, data: Float32Array.from(rng.fillNormal(new Float32Array(shape.reduce((a, b) => a * b, 1))), (value) => offset + scale * value) });
  add('block.block0.conv.kernel', [taps, inC, outC]);
  add('block.block0.conv.bias', [outC]);
  add('block.block0.norm.gamma', [outC], 0.2, 1);
  add('block.block0.norm.beta', [outC], 0.2);
  add('block.film.kernel', [condDim, 2 * outC]);
  add('block.film.bias', [2 * outC]);
  add('block.block1.conv.kernel', [taps, outC, outC]);
  add('block.block1.conv.bias', [outC]);
  add('block.block1.norm.gamma', [outC], 0.2, 1);
  add('block.block1.norm.beta', [outC], 0.2);
  if (inC !== outC) {
    add('block.residual.kernel', [inC, outC]);
    add('block.residual.bias', [outC]);
  }
  return weights;
}

describe('conditional residual block', () => {
  for (const [inC, outC] of [[4, 4], [3, 8]]) {
    test(`${inC} → ${outC} channels${inC === outC ? ' (identity skip)' : ' (1×1 conv skip)'} equals the float64 reference`, async () => {
      const rng = createRng(inC * 10 + outC);
      const [batch, length, condDim, groups] = [2, 6, 5, 2];
      const weights = blockWeights(rng, inC, outC, 3, condDim);
      const { param, dispose } = lookup(weights);
      const x = rng.fillNormal(new Float32Array(batch * length * inC));
      const cond = rng.fillNormal(new Float32Array(batch * condDim));
      const out = tf.tidy(() => residualBlock(param, 'block', tf.tensor3d(x, [batch, length, inC]), mish(tf.tensor2d(cond, [batch, condDim])) as tf.Tensor2D, groups, outC));
      expect(out.shape).toEqual([batch, length, outC]);
      const values = await out.data();
      for (let sample = 0; sample < batch; sample++) {
        residualRef(weights, 'block', rowsOf(x, sample, length, inC), Array.from(cond.subarray(sample * condDim, (sample + 1) * condDim)), groups).flat()
          .forEach((value, offset) => expect(values[sample * length * outC + offset]).toBeCloseTo(value, 4));
      }
      out.dispose();
      dispose();
    });
  }
});
