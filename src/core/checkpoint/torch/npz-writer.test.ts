import { describe, expect, it } from 'vitest';
import { sampleArrays } from './fixtures/written-samples';
import { readNpz } from './npz-reader';
import { writeNpy } from './npy-writer';
import { writeNpz } from './npz-writer';
import { readZipEntries } from './zip-archive';
import { refusal as refusalOf } from './fixtures/refusal';

const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);
const headerLength = (npy: Uint8Array) => 10 + (npy[8] | (npy[9] << 8));

/**
 * fixtures/written-samples.ts's arrays, written by
 *   npx tsx scripts/torch-crosscheck/write_samples.ts /tmp/written
 * and loaded by numpy 1.24 (Debian) with np.load(allow_pickle=False):
 *   /usr/bin/python3 scripts/torch-crosscheck/check_written_pt.py /tmp/written/arrays.npz
 * which printed:
 *   arrays mean: {"dtype": "<f4", "shape": [3], "sum": 1.25, "same_bytes_as_np_save": true}
 *   arrays std: {"dtype": "<f8", "shape": [2, 3], "sum": 21.5, "same_bytes_as_np_save": true}
 *   arrays scalar: {"dtype": "<f4", "shape": [], "sum": 7.75, "same_bytes_as_np_save": true}
 *   arrays cube: {"dtype": "<f8", "shape": [2, 2, 2], "sum": 3.5, "same_bytes_as_np_save": true}
 *   arrays none: {"dtype": "<f4", "shape": [0], "sum": 0.0, "same_bytes_as_np_save": true}
 * (same_bytes_as_np_save: each entry equals np.save's bytes for the array numpy read).
 */
describe('writeNpz: the sample numpy loaded', () => {
  const bytes = writeNpz(sampleArrays());

  it('reads back through readNpz with the keys, dtypes, shapes and sums numpy printed', () => {
    const arrays = readNpz(bytes);
    const figures = [...arrays.entries()].map(([key, array]) => [key, array.dtype, array.shape, [...array.data].reduce((a, b) => Number(a) + Number(b), 0)]);
    expect(figures).toEqual([
      ['mean', 'float32', [3], 1.25],
      ['std', 'float64', [2, 3], 21.5],
      ['scalar', 'float32', [], 7.75],
      ['cube', 'float64', [2, 2, 2], 3.5],
      ['none', 'float32', [0], 0],
    ]);
  });

  it('stores float64 values exactly (the reader rounds them to float32, so read the raw bytes)', () => {
    const npy = readZipEntries(bytes, 'arrays.npz').get('std.npy') as Uint8Array;
    const start = headerLength(npy);
    expect(new Float64Array(npy.slice(start).buffer)).toEqual(Float64Array.from([1, 2, 3, 4, 5, 6.5]));
  });

  it('writes an empty npz that readNpz reads as no arrays', () => {
    expect(readNpz(writeNpz({})).size).toBe(0);
  });
});

describe('writeNpy writes the header np.save writes', () => {
  it.each([
    // numpy 1.24's np.save headers: the dict, then this many spaces and a newline; all 128 bytes with the prefix.
    [[], '<f4', "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 62],
    [[3], '<f4', "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 60],
    [[2, 3], '<f8', "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", 58],
    [[2, 3, 4], '<f4', "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", 55],
    [[0], '<f4', "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }", 60],
  ])('shape %j as %s', (shape, descr, dict, spaces) => {
    const count = (shape as number[]).reduce((a, b) => a * b, 1);
    const data = descr === '<f4' ? new Float32Array(count) : new Float64Array(count);
    const npy = writeNpy({ shape: shape as number[], data });
    expect([...npy.subarray(0, 8)]).toEqual([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
    expect(headerLength(npy)).toBe(128);
    expect(latin1(npy.subarray(10, 128))).toBe(`${dict}${' '.repeat(spaces as number)}\n`);
    expect(npy.length).toBe(128 + data.byteLength);
  });

  it('pads a header that is already aligned by a whole 64 bytes, as numpy does', () => {
    // np.save(np.zeros((1,)*13 + (100,), np.float32)) writes a 192-byte header: 20 growth spaces, then 64 padding spaces.
    const shape = [...Array.from({ length: 13 }, () => 1), 100];
    const npy = writeNpy({ shape, data: new Float32Array(100) });
    expect(headerLength(npy)).toBe(192);
    expect(latin1(npy.subarray(10, 192))).toMatch(/, 100\), \} {84}\n$/);
  });
});

describe('writeNpz refuses arrays it cannot write, in one sentence', () => {
  const refusal = (run: () => unknown): string => refusalOf(run, null);

  it('refuses a shape that does not match the data, other data types and empty keys', () => {
    expect(refusal(() => writeNpz({ a: { shape: [2, 2], data: new Float32Array(3) } }))).toBe(
      'arrays.npz (a.npy): its shape [2, 2] holds 4 values but its data has 3.',
    );
    expect(refusal(() => writeNpz({ a: { shape: [2], data: new Int32Array(2) as unknown as Float32Array } }))).toBe(
      'arrays.npz (a.npy): only Float32Array and Float64Array data are written.',
    );
    expect(refusal(() => writeNpz({ a: { shape: [-1], data: new Float32Array(0) } }))).toContain('its shape is not a list of whole sizes.');
    expect(refusal(() => writeNpz({ '': { shape: [], data: new Float32Array(1) } }))).toContain('an array key must be a non-empty name');
  });
});
