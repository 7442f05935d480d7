import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** x[begin : begin + size] of a row-major array, by plain index arithmetic. */
function referenceSlice(values: number[], shape: number[], begin: number[], size: number[]): number[] {
  const strides = shape.map((_, axis) => shape.slice(axis + 1).reduce((product, extent) => product * extent, 1));
  const out: number[] = [];
  const total = size.reduce((product, extent) => product * extent, 1);
  for (let flat = 0; flat < total; flat++) {
    let rest = flat;
    let offset = 0;
    for (let axis = size.length - 1; axis >= 0; axis--) {
      offset += (begin[axis] + (rest % size[axis])) * strides[axis];
      rest = Math.floor(rest / size[axis]);
    }
    out.push(values[offset]);
  }
  return out;
}

describe('wasm Slice and SplitV read the heap in place', () => {
  test('the replacement kernels are the ones registered', () => {
    expect(tf.getBackend()).toBe('wasm');
    expect(tf.getKernel('Slice', 'wasm')?.kernelFunc.toString()).not.toContain('readSync');
    expect(tf.getKernel('SplitV', 'wasm')?.kernelFunc.toString()).not.toContain('readSync');
  });

  const cases: Array<{ shape: number[]; begin: number[]; size: number[] }> = [
    { shape: [10], begin: [3], size: [4] },
    { shape: [4, 6], begin: [1, 2], size: [2, 3] },
    { shape: [4, 6], begin: [1, 0], size: [3, 6] },
    { shape: [3, 5, 8, 4], begin: [0, 1, 0, 0], size: [3, 1, 8, 4] },
    { shape: [3, 5, 8, 4], begin: [1, 2, 3, 1], size: [2, 2, 4, 2] },
    { shape: [2, 3, 2, 3, 2], begin: [1, 0, 1, 1, 0], size: [1, 3, 1, 2, 2] },
    { shape: [4, 6], begin: [1, 2], size: [0, 3] },
  ];
  test.each(cases)('slice of $shape at $begin, size $size matches index arithmetic', ({ shape, begin, size }) => {
    const count = shape.reduce((product, extent) => product * extent, 1);
    const values = Array.from({ length: count }, (_, index) => index * 0.5 - 7);
    const flat = tf.tidy(() => tf.slice(tf.tensor(values, shape), begin, size).dataSync());
    expect(Array.from(flat)).toEqual(referenceSlice(values, shape, begin, size));
    expect(tf.tidy(() => tf.slice(tf.tensor(values, shape), begin, size).shape)).toEqual(size);
  });

  test('split along each axis gives the parts of index arithmetic, int32 included', () => {
    const shape = [3, 4, 6];
    const values = Array.from({ length: 72 }, (_, index) => index);
    for (const dtype of ['float32', 'int32'] as const) {
      for (const [axis, sizes] of [[0, [1, 2]], [1, [1, 3]], [2, [2, 1, 3]]] as Array<[number, number[]]>) {
        const parts = tf.tidy(() => tf.split(tf.tensor(values, shape, dtype), sizes, axis).map((part) => ({ dtype: part.dtype, values: Array.from(part.dataSync()) })));
        let start = 0;
        parts.forEach((part, index) => {
          const begin = [0, 0, 0];
          const size = [...shape];
          begin[axis] = start;
          size[axis] = sizes[index];
          expect(part.dtype).toBe(dtype);
          expect(part.values).toEqual(referenceSlice(values, shape, begin, size));
          start += sizes[index];
        });
      }
    }
  });

  test('string tensors still slice through tfjs', () => {
    const sliced = tf.tidy(() => tf.slice(tf.tensor(['a', 'b', 'c', 'd'], [4]), [1], [2]).dataSync());
    expect(Array.from(sliced as unknown as string[])).toEqual(['b', 'c']);
  });

  test('the gradient of a slice flows back to the sliced positions', () => {
    const grad = tf.tidy(() => tf.grad((x: tf.Tensor) => tf.sum(tf.mul(tf.slice(x, [1, 1], [2, 2]), 3)))(tf.ones([3, 3])).dataSync());
    expect(Array.from(grad)).toEqual([0, 0, 0, 0, 3, 3, 0, 3, 3]);
  });
});

describe('wasm Identity shares the data by reference count', () => {
  test('a clone keeps its values after the original is disposed, and frees its memory when disposed itself', () => {
    const before = tf.memory().numBytes;
    const original = tf.tensor1d([1.5, -2, 3]);
    const copy = tf.clone(original);
    expect(tf.memory().numBytes - before).toBe(2 * 3 * 4); // two tensors of 3 floats in tfjs's count
    original.dispose();
    expect(Array.from(copy.dataSync())).toEqual([1.5, -2, 3]);
    const backend = tf.backend() as unknown as { refCount(dataId: object): number };
    expect(backend.refCount(copy.dataId)).toBe(1);
    copy.dispose();
    expect(tf.memory().numBytes).toBe(before);
  });

  test('a custom gradient that saves its input gives the same gradient', () => {
    const square = tf.customGrad(((x: tf.Tensor, save: (tensors: tf.Tensor[]) => void) => {
      save([x]);
      return { value: tf.square(x), gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.mul(dy, tf.mul(saved[0], 2)) };
    }) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor) => tf.Tensor;
    // d/dx Σ x² = 2x: at (1, -3, 0.5) that is (2, -6, 1).
    const grad = tf.tidy(() => tf.grad((x: tf.Tensor) => tf.sum(square(x)))(tf.tensor1d([1, -3, 0.5])).dataSync());
    expect(Array.from(grad)).toEqual([2, -6, 1]);
  });
});
