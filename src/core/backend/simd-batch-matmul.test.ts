import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { createRng } from '../random';
import { batchMatMulModuleBytes, MAX_VECTORS, simdBatchMatMul } from './simd-batch-matmul';
import { simdBatchMatMulCalls } from './wasm-kernels';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** C[g] = op(A[g])·op(B[g]) in float64 from row-major float32 inputs. */
function referenceProduct(a: Float32Array, b: Float32Array, groups: number, m: number, k: number, n: number): Float64Array {
  const c = new Float64Array(groups * m * n);
  for (let g = 0; g < groups; g++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let sum = 0;
        for (let p = 0; p < k; p++) sum += a[(g * m + i) * k + p] * b[(g * k + p) * n + j];
        c[(g * m + i) * n + j] = sum;
      }
    }
  }
  return c;
}

function randomTensor(shape: number[], seed: number): tf.Tensor {
  return tf.tensor(createRng(seed).fillNormal(new Float32Array(shape.reduce((x, y) => x * y, 1))), shape);
}

describe('SIMD batched matmul module', () => {
  test('its bytes are a valid module with one function per width', () => {
    const bytes = batchMatMulModuleBytes();
    expect(WebAssembly.validate(bytes)).toBe(true);
    const exported = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((entry) => entry.name);
    expect(exported).toEqual(Array.from({ length: MAX_VECTORS }, (_, index) => `bmm${index + 1}`));
  });

  test('a hand-sized product on its own memory', () => {
    // One group, A = [[1, 2], [3, 4]], B = [[1, 0, 2, −1], [0.5, 1, 0, 3]]:
    // row 0 = 1·B₀ + 2·B₁ = [2, 2, 2, 5]; row 1 = 3·B₀ + 4·B₁ = [5, 4, 6, 9].
    const memory = new WebAssembly.Memory({ initial: 1 });
    const run = simdBatchMatMul(memory)!;
    const heap = new Float32Array(memory.buffer);
    heap.set([1, 2, 3, 4], 0);
    heap.set([1, 0, 2, -1, 0.5, 1, 0, 3], 16);
    run(0, 64, 128, 1, 2, 2, 4);
    expect(Array.from(heap.subarray(32, 40))).toEqual([2, 2, 2, 5, 5, 4, 6, 9]);
  });
});

describe('wasm BatchMatMul of small batched matrices', () => {
  test.each([
    [1024, 8, 16, 8], [1024, 8, 8, 16], [3, 5, 7, 12], [2, 1, 1, 4], [4, 3, 2, 16],
  ])('G %i: [%i, %i] · [k, %i] equals the float64 product', async (groups, m, k, n) => {
    const [a, b] = [randomTensor([groups, m, k], 1), randomTensor([groups, k, n], 2)];
    const callsBefore = simdBatchMatMulCalls();
    const product = tf.matMul(a, b);
    expect(simdBatchMatMulCalls()).toBe(callsBefore + 1);
    const expected = referenceProduct((await a.data()) as Float32Array, (await b.data()) as Float32Array, groups, m, k, n);
    const actual = await product.data();
    expect(product.shape).toEqual([groups, m, n]);
    // Products of N(0, 1) values summed over k ≤ 16 terms: float32 rounding stays under 1e-5.
    actual.forEach((value, index) => expect(Math.abs(value - expected[index])).toBeLessThan(1e-5));
    tf.dispose([a, b, product]);
  });

  test('equals the wasm backend\'s own loop bit for bit (same products, added in the same order)', async () => {
    for (const [groups, m, k, n] of [[1024, 8, 8, 16], [1024, 8, 16, 8], [64, 8, 48, 4]]) {
      const [a, b] = [randomTensor([groups, m, k], 9), randomTensor([groups, k, n], 10)];
      // transposeB sends the product through tfjs's scalar loop.
      const [ours, theirs] = [tf.matMul(a, b), tf.matMul(a, tf.transpose(b, [0, 2, 1]), false, true)];
      expect(Array.from(await ours.data())).toEqual(Array.from(await theirs.data()));
      tf.dispose([a, b, ours, theirs]);
    }
  });

  test('shapes it does not take (transposed, broadcast, one group, odd or wide N) still give the product', async () => {
    const cases: [number[], number[], boolean, boolean][] = [
      [[3, 4, 5], [3, 4, 8], true, false], // Aᵀ
      [[3, 4, 5], [3, 8, 5], false, true], // Bᵀ
      [[1, 4, 5], [3, 5, 8], false, false], // broadcast A
      [[1, 4, 5], [1, 5, 8], false, false], // one group: xnnpack
      [[3, 4, 5], [3, 5, 6], false, false], // N not a multiple of 4
      [[3, 4, 5], [3, 5, 20], false, false], // N above 16
      [[3, 4, 60], [3, 60, 8], false, false], // K above one block of tfjs's loop
    ];
    for (const [aShape, bShape, transposeA, transposeB] of cases) {
      const [a, b] = [randomTensor(aShape, 3), randomTensor(bShape, 4)];
      const callsBefore = simdBatchMatMulCalls();
      const product = tf.matMul(a, b, transposeA, transposeB);
      expect(simdBatchMatMulCalls(), JSON.stringify([aShape, bShape])).toBe(callsBefore);
      // The same product through explicit transposes and one group at a time (2-D, xnnpack).
      const plainA = transposeA ? tf.transpose(a, [0, 2, 1]) : a;
      const plainB = transposeB ? tf.transpose(b, [0, 2, 1]) : b;
      const groups = Math.max(aShape[0], bShape[0]);
      const perGroup = tf.stack(Array.from({ length: groups }, (_, g) => tf.matMul(
        tf.squeeze(tf.slice(plainA, [plainA.shape[0] === 1 ? 0 : g, 0, 0], [1, -1, -1]), [0]) as tf.Tensor2D,
        tf.squeeze(tf.slice(plainB, [plainB.shape[0] === 1 ? 0 : g, 0, 0], [1, -1, -1]), [0]) as tf.Tensor2D,
      )));
      const [actual, expected] = [await product.data(), await perGroup.data()];
      expect(product.shape).toEqual(perGroup.shape);
      actual.forEach((value, index) => expect(value).toBeCloseTo(expected[index], 5));
      tf.dispose([a, b, product, plainA, plainB, perGroup]);
    }
  });

  test('operands made after the heap grows are read where they now live', async () => {
    const before = tf.matMul(randomTensor([2, 2, 2], 5), randomTensor([2, 2, 4], 6));
    const heapBytes = () => (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.buffer.byteLength;
    const grownFrom = heapBytes();
    // 96 MiB more than the heap held: the wasm memory grows and earlier views detach.
    const filler = tf.zeros([24 * 1024 * 1024]);
    expect(heapBytes()).toBeGreaterThan(grownFrom);
    const [a, b] = [randomTensor([8, 3, 4], 7), randomTensor([8, 4, 8], 8)];
    const product = tf.matMul(a, b);
    const expected = referenceProduct((await a.data()) as Float32Array, (await b.data()) as Float32Array, 8, 3, 4, 8);
    (await product.data()).forEach((value, index) => expect(Math.abs(value - expected[index])).toBeLessThan(1e-5));
    tf.dispose([before, filler, a, b, product]);
  });
});
