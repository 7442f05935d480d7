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

describe('wasm Cast to the same dtype shares the data', () => {
  test('a float32 cast of a float32 tensor shares its data; a cast to int32 still converts', () => {
    const backend = tf.backend() as unknown as { refCount(dataId: object): number };
    const original = tf.tensor1d([1.5, -2.25, 3]);
    const same = tf.cast(original, 'float32');
    expect(same.dataId).toBe(original.dataId);
    expect(backend.refCount(original.dataId)).toBe(2);
    original.dispose();
    expect(Array.from(same.dataSync())).toEqual([1.5, -2.25, 3]);
    // int32 truncates toward zero: 1.5 → 1, −2.25 → −2, 3 → 3.
    const converted = tf.cast(same, 'int32');
    expect(converted.dtype).toBe('int32');
    expect(Array.from(converted.dataSync())).toEqual([1, -2, 3]);
    tf.dispose([same, converted]);
  });

  test('the gradient of a product (which casts each factor) is unchanged', () => {
    // d/da Σ a⊙b = b and d/db = a: a = (1, 2), b = (3, −4).
    const [da, db] = tf.tidy(() => tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(a, b)))([tf.tensor1d([1, 2]), tf.tensor1d([3, -4])]).map((grad) => Array.from(grad.dataSync())));
    expect(da).toEqual([3, -4]);
    expect(db).toEqual([1, 2]);
  });
});

describe('wasm Transpose of a narrow matrix', () => {
  test.each([[512, 64], [300, 130], [96, 8]])('[%i, %i] transposes to index arithmetic, and its gradient transposes back', (rows, cols) => {
    const values = Float32Array.from({ length: rows * cols }, (_, index) => (index % 977) * 0.25 - 100);
    const out = tf.tidy(() => tf.transpose(tf.tensor2d(values, [rows, cols])).dataSync());
    // out[c, r] = x[r, c]
    for (let col = 0; col < cols; col += 7) for (let row = 0; row < rows; row += 5) expect(out[col * rows + row]).toBe(values[row * cols + col]);
    const grad = tf.tidy(() => tf.grad((x: tf.Tensor) => tf.sum(tf.mul(tf.transpose(x), tf.transpose(tf.tensor2d(values, [rows, cols])))))(tf.zeros([rows, cols])).dataSync());
    expect(Array.from(grad)).toEqual(Array.from(values));
  });

  test('int32 and rank-3 transposes still go through tfjs', () => {
    const ints = tf.tidy(() => Array.from(tf.transpose(tf.tensor2d(Int32Array.from({ length: 256 * 160 }, (_, index) => index), [256, 160], 'int32')).dataSync()));
    expect(ints.slice(0, 3)).toEqual([0, 160, 320]);
    const cube = tf.tidy(() => Array.from(tf.transpose(tf.tensor3d([1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 2]), [0, 2, 1]).dataSync()));
    expect(cube).toEqual([1, 3, 2, 4, 5, 7, 6, 8]);
  });
});
