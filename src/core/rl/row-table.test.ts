import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { ShapeError } from '../errors';
import { RowTable } from './row-table';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** S rows of `width` numbers where row r holds 100·r + column: a gathered value names its source row. */
function rowsOf(rowCount: number, width: number): Float32Array {
  return Float32Array.from({ length: rowCount * width }, (_, index) => 100 * Math.floor(index / width) + (index % width));
}

/** A table of 6 rows: a scalar, a 3-vector and a [2, 2] block per row. */
function table() {
  return new RowTable(6, {
    scalar: { values: rowsOf(6, 1), rowShape: [] },
    vector: { values: rowsOf(6, 3), rowShape: [3] },
    block: { values: rowsOf(6, 4), rowShape: [2, 2] },
  });
}

describe('RowTable', () => {
  it('gathers the same rows out of every field, in the order asked, repeats included', () => {
    const gathered = table().gather([5, 0, 5]);
    expect([...gathered.scalar]).toEqual([500, 0, 500]);
    expect([...gathered.vector]).toEqual([500, 501, 502, 0, 1, 2, 500, 501, 502]);
    expect([...gathered.block]).toEqual([500, 501, 502, 503, 0, 1, 2, 3, 500, 501, 502, 503]);
  });

  it('gathers no rows into empty fields', () => {
    const gathered = table().gather([]);
    expect([gathered.scalar.length, gathered.vector.length, gathered.block.length]).toEqual([0, 0, 0]);
  });

  it('copies, so writing a gathered row leaves the table as it was', () => {
    const rows = table();
    rows.gather([2]).vector[0] = -1;
    expect(rows.fields.vector.values[6]).toBe(200);
  });

  it('makes float32 tensors [M, ...rowShape] holding the gathered rows, and leaks none', async () => {
    const before = tf.memory().numTensors;
    const tensors = table().tensors([3, 1]);
    expect(tensors.scalar.shape).toEqual([2]);
    expect(tensors.vector.shape).toEqual([2, 3]);
    expect(tensors.block.shape).toEqual([2, 2, 2]);
    expect(tensors.block.dtype).toBe('float32');
    expect([...(await tensors.vector.data())]).toEqual([300, 301, 302, 100, 101, 102]);
    expect([...(await tensors.block.data())]).toEqual([300, 301, 302, 303, 100, 101, 102, 103]);
    tf.dispose(Object.values(tensors));
    expect(tf.memory().numTensors).toBe(before);
  });

  it('refuses a field that does not hold rowCount rows of its shape, naming it', () => {
    const build = () => new RowTable(6, { vector: { values: rowsOf(6, 3), rowShape: [3] }, block: { values: rowsOf(5, 4), rowShape: [2, 2] } });
    expect(build).toThrow(ShapeError);
    expect(build).toThrow('block must hold 6 rows of [2, 2] (24 values), got 20');
  });

  it('keeps a shared field once per run of rows: row r reads stored row ⌊r / rowsPerValue⌋, as bytes or floats', async () => {
    // 6 rows, 3 per stored row: a decision's observation and images under each of its 3 denoising steps.
    const shared = new RowTable<'step' | 'obs' | 'images', { step: Float32Array; obs: Float32Array; images: Uint8Array }>(6, {
      step: { values: rowsOf(6, 1), rowShape: [] },
      obs: { values: rowsOf(2, 2), rowShape: [2], rowsPerValue: 3 },
      images: { values: Uint8Array.from([1, 2, 3, 4]), rowShape: [2], rowsPerValue: 3 },
    });
    const gathered = shared.gather([5, 0, 3, 2]);
    expect([...gathered.step]).toEqual([500, 0, 300, 200]);
    expect([...gathered.obs]).toEqual([100, 101, 0, 1, 100, 101, 0, 1]);
    expect([...gathered.images]).toEqual([3, 4, 1, 2, 3, 4, 1, 2]);
    const tensors = shared.tensors([4]);
    expect([...(await tensors.images.data())]).toEqual([3, 4]);
    tf.dispose(Object.values(tensors));
  });

  it('refuses a shared field whose rowsPerValue does not divide the rows, or that holds the wrong count, in one sentence', () => {
    expect(() => new RowTable(6, { obs: { values: rowsOf(2, 2), rowShape: [2], rowsPerValue: 4 } }))
      .toThrow('obs shares each stored row among 4 table rows, which must be a whole number that divides the 6 rows');
    expect(() => new RowTable(6, { obs: { values: rowsOf(3, 2), rowShape: [2], rowsPerValue: 3 } }))
      .toThrow('obs must hold 2 rows of [2] (4 values, one per 3 table rows), got 6');
  });
});
