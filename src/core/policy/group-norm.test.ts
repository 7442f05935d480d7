import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { groupNormRef } from './fixtures/unet1d-reference';
import { groupNorm } from './group-norm';
import type { WeightEntry } from './weight-check';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** groupNorm of x [B, L, C] with γ, β under 'norm' → values, and the gradient of Σ y ⊙ W w.r.t. x, γ and β. */
async function run(x: Float32Array, shape: [number, number, number], gamma: Float32Array, beta: Float32Array, groups: number, outWeight?: Float32Array) {
  const [g, b] = [tf.tensor1d(gamma), tf.tensor1d(beta)];
  const forward = (input: tf.Tensor, gg: tf.Tensor, bb: tf.Tensor) => groupNorm((name) => (name === 'norm.gamma' ? gg : bb), 'norm', input as tf.Tensor3D, groups);
  const out = tf.tidy(() => forward(tf.tensor3d(x, shape), g, b));
  const values = await out.data();
  let grads: Float32Array[] = [];
  if (outWeight) {
    const weight = tf.tensor3d(outWeight, shape);
    const tensors = tf.grads((input: tf.Tensor, gg: tf.Tensor, bb: tf.Tensor) => tf.sum(tf.mul(forward(input, gg, bb), weight)))([tf.tensor3d(x, shape), g, b]);
    grads = await Promise.all(tensors.map(async (tensor) => (await tensor.data()) as Float32Array));
    tf.dispose([...tensors, weight]);
  }
  tf.dispose([out, g, b]);
  return { values, grads };
}

describe('GroupNorm over [B, L, C]', () => {
  test('hand example: L = 2, C = 4, two groups of two channels', async () => {
    // Group 0 (channels 0, 1) holds 1, 2, 3, 4: mean 2.5, biased var 1.25, σ = √(1.25 + 1e−5) = 1.1180384;
    //   x̂ = (1 − 2.5)/σ = −1.3416354, (2 − 2.5)/σ = −0.4472118, 0.4472118, 1.3416354.
    // Group 1 (channels 2, 3) holds 10, 20, 30, 40: mean 25, var 125, x̂ = −1.3416407, −0.4472136, 0.4472136, 1.3416407.
    // γ = [1, 1, 2, 2], β = [0, 0, 0, 1]: channel 2 → 2·x̂, channel 3 → 2·x̂ + 1.
    const { values } = await run(Float32Array.of(1, 2, 10, 20, 3, 4, 30, 40), [1, 2, 4], Float32Array.of(1, 1, 2, 2), Float32Array.of(0, 0, 0, 1), 2);
    [-1.3416354, -0.4472118, -2.6832815, 0.1055728, 0.4472118, 1.3416354, 0.8944272, 3.6832815]
      .forEach((expected, offset) => expect(values[offset]).toBeCloseTo(expected, 5));
  });

  test('fresh random inputs against the float64 reference, with the gradient along random directions', async () => {
    const rng = createRng(8);
    for (const [length, channels, groups] of [[4, 6, 3], [8, 16, 8], [3, 4, 1], [2, 4, 4]]) {
      const shape: [number, number, number] = [2, length, channels];
      const size = 2 * length * channels;
      const x = Float32Array.from(rng.fillNormal(new Float32Array(size)), (value) => 2 * value + 1);
      const gamma = rng.fillNormal(new Float32Array(channels));
      const beta = rng.fillNormal(new Float32Array(channels));
      const outWeight = rng.fillNormal(new Float32Array(size));
      const { values, grads } = await run(x, shape, gamma, beta, groups, outWeight);
      // The reference reads any array of numbers: moved values stay float64.
      type Values = Float32Array | Float64Array;
      const weightsOf = (g: Values, b: Values) => new Map([['norm.gamma', { shape: [channels], data: g }], ['norm.beta', { shape: [channels], data: b }]]) as unknown as Map<string, WeightEntry>;
      const rows = (data: Values, sample: number) => Array.from({ length }, (_, l) => Array.from(data.subarray((sample * length + l) * channels, (sample * length + l + 1) * channels)));
      const objective = (input: Values, g: Values, b: Values) => [0, 1].reduce((total, sample) =>
        total + groupNormRef(weightsOf(g, b), 'norm', rows(input, sample), groups).flat()
          .reduce((sum, value, offset) => sum + value * outWeight[sample * length * channels + offset], 0), 0);
      for (let sample = 0; sample < 2; sample++) {
        groupNormRef(weightsOf(gamma, beta), 'norm', rows(x, sample), groups).flat()
          .forEach((value, offset) => expect(values[sample * length * channels + offset]).toBeCloseTo(value, 4));
      }
      // ⟨∇, u⟩ against a central difference of the float64 reference, for x, γ and β in turn.
      const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((sum, value, offset) => sum + value * b[offset], 0);
      const step = 1e-3;
      const direction = (n: number) => rng.fillNormal(new Float32Array(n));
      const [ux, ug, ub] = [direction(size), direction(channels), direction(channels)];
      const moved = (base: Float32Array, u: Float32Array, sign: number) => Float64Array.from(base, (value, offset) => value + sign * step * u[offset]);
      const centralX = (objective(moved(x, ux, 1), gamma, beta) - objective(moved(x, ux, -1), gamma, beta)) / (2 * step);
      const centralG = (objective(x, moved(gamma, ug, 1), beta) - objective(x, moved(gamma, ug, -1), beta)) / (2 * step);
      const centralB = (objective(x, gamma, moved(beta, ub, 1)) - objective(x, gamma, moved(beta, ub, -1))) / (2 * step);
      expect(dot(grads[0], ux)).toBeCloseTo(centralX, 3);
      expect(dot(grads[1], ug)).toBeCloseTo(centralG, 3);
      expect(dot(grads[2], ub)).toBeCloseTo(centralB, 3);
    }
  });
});
