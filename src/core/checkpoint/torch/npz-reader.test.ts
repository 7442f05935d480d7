import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readNpz } from './npz-reader';
import { refusal as refusalOf } from './fixtures/refusal';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Files written by ReinFlow's and DPPO's own code and by numpy, beside the project (never copied into it). */
const FIXTURES = path.resolve(here, '../../../../../shared/fixtures');

/** A `.npy` (format 1.0) with the given header dict and data bytes. */
function npy(header: string, data: Uint8Array): Uint8Array {
  let text = header;
  while ((10 + text.length + 1) % 64 !== 0) text += ' ';
  text += '\n';
  const bytes = new Uint8Array(10 + text.length + data.length);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, text.length & 0xff, text.length >> 8]);
  bytes.set(new TextEncoder().encode(text), 10);
  bytes.set(data, 10 + text.length);
  return bytes;
}

const read = (files: Record<string, Uint8Array>) => readNpz(zipSync(files), { label: 'arrays.npz' });

/** The reader's refusal; the tests check its whole wording. */
const refusal = (run: () => unknown): string => refusalOf(run, null);

describe('readNpz', () => {
  it('reads float, integer and bool arrays in either byte order, and gathers Fortran order into row-major', () => {
    const bigEndian = new Uint8Array(8);
    new DataView(bigEndian.buffer).setFloat32(0, 2.5, false);
    new DataView(bigEndian.buffer).setFloat32(4, -1, false);
    const arrays = read({
      'c.npy': npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", new Uint8Array(new Float64Array([0, 1, 2, 3, 4, 5]).buffer)),
      'f.npy': npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", new Uint8Array(new Float32Array([0, 3, 1, 4, 2, 5]).buffer)),
      'be.npy': npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", bigEndian),
      'n.npy': npy("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }", new Uint8Array(new BigInt64Array([37n, 1000n]).buffer)),
      'b.npy': npy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", Uint8Array.from([0, 1, 1])),
      's.npy': npy("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", new Uint8Array(new Float32Array([7]).buffer)),
    });
    expect([...arrays.keys()]).toEqual(['c', 'f', 'be', 'n', 'b', 's']);
    expect(arrays.get('c')?.dtype).toBe('float64');
    expect(arrays.get('c')?.data).toEqual(Float32Array.from([0, 1, 2, 3, 4, 5]));
    expect(arrays.get('f')?.shape).toEqual([2, 3]);
    expect(arrays.get('f')?.data).toEqual(Float32Array.from([0, 1, 2, 3, 4, 5]));
    expect(arrays.get('be')?.data).toEqual(Float32Array.from([2.5, -1]));
    expect(arrays.get('n')?.data).toEqual(BigInt64Array.from([37n, 1000n]));
    expect(arrays.get('b')?.data).toEqual(Float32Array.from([0, 1, 1]));
    expect(arrays.get('s')?.shape).toEqual([]);
  });

  it('refuses an object array (numpy pickles those) in one sentence', () => {
    const pickled = Uint8Array.from([0x80, 0x02, 0x63, ...new TextEncoder().encode('os\nsystem\n'), 0x2e]);
    const message = refusal(() => read({ 'obs_min.npy': npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", pickled) }));
    expect(message).toBe("arrays.npz (obs_min.npy): it holds an object array (dtype '|O'), which numpy stores as a pickle; refusing to load it.");
  });

  it('refuses structured and string dtypes, malformed headers, short data and entries that are not .npy', () => {
    expect(refusal(() => read({ 'a.npy': npy("{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (1,), }", new Uint8Array(4)) })))
      .toContain('a structured dtype');
    expect(refusal(() => read({ 'a.npy': npy("{'descr': '<U8', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(32)) })))
      .toContain("its dtype '<U8' is not read");
    expect(refusal(() => read({ 'a.npy': npy("{'descr': '<f4', 'shape': (1,), }", new Uint8Array(4)) })))
      .toContain("missing 'descr', 'fortran_order' or 'shape'");
    expect(refusal(() => read({ 'a.npy': npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000), }", new Uint8Array(4)) })))
      .toContain('only 4 bytes follow; the file is truncated');
    expect(refusal(() => read({ 'a.pkl': new Uint8Array(4) }))).toContain("holds 'a.pkl', which is not a .npy array");
  });
});

describe.skipIf(!existsSync(FIXTURES))('peer .npz files', () => {
  it("reads ReinFlow's normalization.npz: obs_min, obs_max (11) and action_min, action_max (3), float32", () => {
    const arrays = readNpz(readFileSync(path.join(FIXTURES, 'peers/reinflow-hopper/normalization.npz')), { label: 'normalization.npz' });
    expect([...arrays.keys()]).toEqual(['obs_min', 'obs_max', 'action_min', 'action_max']);
    expect([...arrays.values()].map((array) => [array.dtype, ...array.shape])).toEqual([
      ['float32', 11], ['float32', 11], ['float32', 3], ['float32', 3],
    ]);
    // numpy: np.load(...)['action_min'] is [-0.7785078, -0.80655015, -0.8586901].
    expect(arrays.get('action_min')?.data).toEqual(Float32Array.from([-0.7785078, -0.80655015, -0.8586901]));
    const obsMin = arrays.get('obs_min')?.data as Float32Array;
    const obsMax = arrays.get('obs_max')?.data as Float32Array;
    expect(obsMin.every((low, index) => low < obsMax[index])).toBe(true);
  });

  it("reads a dataset's compressed train.npz: states, actions, rewards, terminals, traj_lengths", () => {
    const arrays = readNpz(readFileSync(path.join(FIXTURES, 'datasets/reinflow-hopper-train.npz')), { label: 'train.npz' });
    expect([...arrays.keys()]).toEqual(['states', 'actions', 'rewards', 'terminals', 'traj_lengths']);
    expect([...arrays.values()].map((array) => [array.dtype, array.shape])).toEqual([
      ['float64', [1449, 11]], ['float64', [1449, 3]], ['float64', [1449]], ['bool', [1449]], ['int64', [3]],
    ]);
    expect(arrays.get('traj_lengths')?.data).toEqual(BigInt64Array.from([37n, 1000n, 412n]));
    const terminals = arrays.get('terminals')?.data as Float32Array;
    expect(terminals.reduce((total, value) => total + value, 0)).toBe(2);
    const actions = arrays.get('actions')?.data as Float32Array;
    expect(actions.every((value) => value >= -1 && value <= 1)).toBe(true);
    // numpy (float64 sums): states -514.2285170907987, rewards 2868.218786198243; ours are over float32 values.
    expect([...(arrays.get('states')?.data as Float32Array)].reduce((a, b) => a + b, 0)).toBeCloseTo(-514.2285170907987, 4);
    expect([...(arrays.get('rewards')?.data as Float32Array)].reduce((a, b) => a + b, 0)).toBeCloseTo(2868.218786198243, 3);
  });
});
