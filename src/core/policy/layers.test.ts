import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { dense, transpose2d } from './layers';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('dense layer gradients (explicit-transpose matmul gradient)', () => {
  test('dL/dx, dL/dW and dL/db match float64 references for L = Σ (x·W + b) ⊙ C', async () => {
    const rng = createRng(9);
    const [rows, inSize, outSize] = [5, 4, 3];
    const x = Float32Array.from({ length: rows * inSize }, () => rng.normal());
    const kernel = Float32Array.from({ length: inSize * outSize }, () => rng.normal());
    const bias = Float32Array.from({ length: outSize }, () => rng.normal());
    const weight = Float32Array.from({ length: rows * outSize }, () => rng.normal());
    const params = new Map<string, tf.Tensor>([['layer.kernel', tf.tensor2d(kernel, [inSize, outSize])], ['layer.bias', tf.tensor1d(bias)]]);
    const lookup = (name: string) => params.get(name)!;
    const c = tf.tensor2d(weight, [rows, outSize]);
    const xs = tf.tensor2d(x, [rows, inSize]);
    const [dx, dKernel, dBias] = tf.grads((input: tf.Tensor, k: tf.Tensor, b: tf.Tensor) => {
      const local = new Map([['layer.kernel', k], ['layer.bias', b]]);
      return tf.sum(tf.mul(dense((name) => local.get(name)!, 'layer', input), c));
    })([xs, params.get('layer.kernel')!, params.get('layer.bias')!]);
    const [dxData, dKernelData, dBiasData] = await Promise.all([dx.data(), dKernel.data(), dBias.data()]);
    // dL/dx[r, i] = Σ_o C[r, o]·W[i, o]; dL/dW[i, o] = Σ_r x[r, i]·C[r, o]; dL/db[o] = Σ_r C[r, o]
    for (let row = 0; row < rows; row++) {
      for (let input = 0; input < inSize; input++) {
        let sum = 0;
        for (let output = 0; output < outSize; output++) sum += weight[row * outSize + output] * kernel[input * outSize + output];
        expect(dxData[row * inSize + input]).toBeCloseTo(sum, 5);
      }
    }
    for (let input = 0; input < inSize; input++) {
      for (let output = 0; output < outSize; output++) {
        let sum = 0;
        for (let row = 0; row < rows; row++) sum += x[row * inSize + input] * weight[row * outSize + output];
        expect(dKernelData[input * outSize + output]).toBeCloseTo(sum, 5);
      }
    }
    for (let output = 0; output < outSize; output++) {
      let sum = 0;
      for (let row = 0; row < rows; row++) sum += weight[row * outSize + output];
      expect(dBiasData[output]).toBeCloseTo(sum, 5);
    }
    // Forward value of a rank-3 input keeps its leading axes.
    const forward = tf.tidy(() => dense(lookup, 'layer', tf.reshape(xs, [1, rows, inSize])));
    expect(forward.shape).toEqual([1, rows, outSize]);
    const forwardData = await forward.data();
    let first = bias[0];
    for (let input = 0; input < inSize; input++) first += x[input] * kernel[input * outSize];
    expect(forwardData[0]).toBeCloseTo(first, 5);
    tf.dispose([dx, dKernel, dBias, c, xs, forward, ...params.values()]);
  });
});

describe('transpose2d', () => {
  test('equals the plain transpose exactly for tiled, odd and small shapes', async () => {
    const rng = createRng(4);
    // 1024×256 and 512×300 take the tiled path (8×8 and 4×4 tiles); the rest the plain one.
    for (const [rows, cols] of [[1024, 256], [512, 300], [256, 258], [64, 128], [3, 5]] as const) {
      const x = tf.tensor2d(Float32Array.from({ length: rows * cols }, () => rng.normal()), [rows, cols]);
      const [fast, plain] = [transpose2d(x), tf.transpose(x)];
      expect(fast.shape).toEqual([cols, rows]);
      expect(Array.from(await fast.data())).toEqual(Array.from(await plain.data()));
      tf.dispose([x, fast, plain]);
    }
  });
});
