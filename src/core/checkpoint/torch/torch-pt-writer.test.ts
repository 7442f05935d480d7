import { describe, expect, it } from 'vitest';
import { sampleCheckpoint, sampleLinear } from './fixtures/written-samples';
import { isPickleDict, type PickleDict, type PickleValue } from './pickle-values';
import { WEIGHTS_ONLY_OPCODES } from './pickle-writer';
import { ForeignTensor } from './tensor-dtypes';
import { readTorchCheckpoint } from './torch-pt-reader';
import { writeTorchCheckpoint, type TorchWritable } from './torch-pt-writer';
import { readZipEntries } from './zip-archive';
import { refusal } from './fixtures/refusal';

const roundTrip = (value: TorchWritable): PickleValue => readTorchCheckpoint(writeTorchCheckpoint(value));

function dict(value: PickleValue | undefined): PickleDict {
  if (!isPickleDict(value)) throw new Error('expected a dict');
  return value;
}

function tensor(value: PickleValue | undefined): ForeignTensor {
  if (!(value instanceof ForeignTensor)) throw new Error('expected a tensor');
  return value;
}

const sum = (data: ArrayLike<number>) => Array.from(data).reduce((total, value) => total + value, 0);


/** Argument bytes after each opcode WEIGHTS_ONLY_OPCODES lists; a function for the length-prefixed ones. */
const ARGUMENT_BYTES: Readonly<Record<string, number | ((bytes: Uint8Array, at: number) => number)>> = {
  PROTO: 1, BINPUT: 1, BINGET: 1, BININT1: 1, LONG_BINPUT: 4, LONG_BINGET: 4, BININT2: 2, BININT: 4,
  LONG1: (bytes, at) => 1 + bytes[at],
  SHORT_BINSTRING: (bytes, at) => 1 + bytes[at],
  BINUNICODE: (bytes, at) => 4 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, true),
  GLOBAL: (bytes, at) => {
    const first = bytes.indexOf(0x0a, at);
    return bytes.indexOf(0x0a, first + 1) + 1 - at;
  },
};

/** The opcode names of a pickle, walked opcode by opcode; one outside torch 1.13's weights_only set fails. */
function opcodeNames(pickle: Uint8Array): string[] {
  const names: string[] = [];
  let at = 0;
  while (at < pickle.length) {
    const name = WEIGHTS_ONLY_OPCODES.get(pickle[at]);
    if (name === undefined) throw new Error(`opcode 0x${pickle[at].toString(16)} at byte ${at} is not one torch's weights_only loader accepts`);
    names.push(name);
    at += 1;
    const argument = ARGUMENT_BYTES[name] ?? 0;
    at += typeof argument === 'number' ? argument : argument(pickle, at);
    if (name === 'STOP') break;
  }
  expect(at).toBe(pickle.length);
  return names;
}

/** Each local header's entry name, compression method and data offset, in file order. */
function localEntries(zip: Uint8Array): Array<{ name: string; method: number; dataStart: number; size: number }> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const entries = [];
  let at = 0;
  while (view.getUint32(at, true) === 0x04034b50) {
    const method = view.getUint16(at + 8, true);
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(zip.subarray(at + 30, at + 30 + nameLength));
    const dataStart = at + 30 + nameLength + extraLength;
    entries.push({ name, method, dataStart, size });
    at = dataStart + size;
  }
  return entries;
}

/**
 * The sample files of fixtures/written-samples.ts, written by
 *   npx tsx scripts/torch-crosscheck/write_samples.ts /tmp/written
 * and loaded by torch 1.13 (Debian's python3-torch) with torch.load(weights_only=True):
 *   /usr/bin/python3 scripts/torch-crosscheck/check_written_pt.py /tmp/written/checkpoint.pt /tmp/written/linear.pt
 * which printed (abridged):
 *   checkpoint.pt
 *     zip: archive/data.pkl, archive/byteorder, archive/data/0..3, archive/version; all stored, all aligned64
 *     opcodes: APPENDS BINGET BININT BININT1 BININT2 BINPERSID BINPUT BINUNICODE EMPTY_LIST EMPTY_TUPLE GLOBAL LONG1
 *              MARK NEWFALSE NEWTRUE NONE PROTO REDUCE SETITEM SETITEMS STOP TUPLE TUPLE1 TUPLE2 TUPLE3
 *     values (top): "collections.OrderedDict of 10"
 *     values model: "collections.OrderedDict of 4"
 *     values model.encoder.weight: {"dtype": "float32", "shape": [2, 3], "stride": [3, 1], "sum": 0.75}
 *     values model.encoder.bias: {"dtype": "float32", "shape": [2], "stride": [1], "sum": -0.5}
 *     values model.head.cube: {"dtype": "float32", "shape": [2, 2, 2], "stride": [4, 2, 1], "sum": 3.5}
 *     values model.head.scale: {"dtype": "float32", "shape": [], "stride": [], "sum": 3.25}
 *     values ema.encoder.weight: {"dtype": "float32", "shape": [2, 3], "stride": [3, 1], "sum": 0.75}  (same data_ptr as model's)
 *     values step: "4096", seed: "-7", total_steps: "1099511627776", min_long: "-9223372036854775808",
 *            name: "'flowtune'", flags: "[True, False, None]", sizes: "(3, 2)", empty: "collections.OrderedDict of 0"
 *   linear.pt
 *     values weight: {"dtype": "float32", "shape": [2, 3], "stride": [3, 1], "sum": -0.75}
 *     values bias: {"dtype": "float32", "shape": [2], "stride": [1], "sum": -0.875}
 *     linear load_state_dict: "<All keys matched successfully>"   (torch.nn.Linear(3, 2), strict=True)
 *     linear output_for_ones: [0.875, -2.5]
 */
describe('writeTorchCheckpoint: the samples torch 1.13 loaded with weights_only=True', () => {
  const checkpoint = dict(roundTrip(sampleCheckpoint()));

  it('reads back the nested dicts, in order, with the figures torch printed', () => {
    expect([...checkpoint.keys()]).toEqual(['model', 'ema', 'step', 'seed', 'total_steps', 'min_long', 'name', 'flags', 'sizes', 'empty']);
    const model = dict(checkpoint.get('model'));
    expect([...model.keys()]).toEqual(['encoder.weight', 'encoder.bias', 'head.cube', 'head.scale']);
    const figures = [...model.entries()].map(([name, value]) => [name, tensor(value).dtype, tensor(value).shape, sum(tensor(value).data as Float32Array)]);
    expect(figures).toEqual([
      ['encoder.weight', 'float32', [2, 3], 0.75],
      ['encoder.bias', 'float32', [2], -0.5],
      ['head.cube', 'float32', [2, 2, 2], 3.5],
      ['head.scale', 'float32', [], 3.25],
    ]);
    expect([...tensor(model.get('head.cube')).data]).toEqual([0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875]);
    expect([...tensor(dict(checkpoint.get('ema')).get('encoder.weight')).data]).toEqual([-0.5, -0.25, 0, 0.25, 0.5, 0.75]);
  });

  it('reads back ints, a bigint, a string, bools, None, a list, a tuple and an empty dict', () => {
    expect(checkpoint.get('step')).toBe(4096);
    expect(checkpoint.get('seed')).toBe(-7);
    expect(checkpoint.get('total_steps')).toBe(2 ** 40);
    expect(checkpoint.get('min_long')).toBe(-(2n ** 63n));
    expect(checkpoint.get('name')).toBe('flowtune');
    expect(checkpoint.get('flags')).toEqual([true, false, null]);
    expect(Object.isFrozen(checkpoint.get('flags'))).toBe(false);
    expect(checkpoint.get('sizes')).toEqual([3, 2]);
    expect(Object.isFrozen(checkpoint.get('sizes'))).toBe(true);
    expect(dict(checkpoint.get('empty')).size).toBe(0);
  });

  it("lays out the zip as torch does: stored entries, data 64-byte aligned, version '3\\n'", () => {
    const bytes = writeTorchCheckpoint(sampleCheckpoint());
    const entries = localEntries(bytes);
    expect(entries.map((entry) => entry.name)).toEqual([
      'archive/data.pkl', 'archive/byteorder', 'archive/data/0', 'archive/data/1', 'archive/data/2', 'archive/data/3', 'archive/version',
    ]);
    for (const entry of entries) {
      expect(entry.method).toBe(0);
      expect(entry.dataStart % 64).toBe(0);
    }
    const files = readZipEntries(bytes, 'checkpoint.pt');
    expect(new TextDecoder().decode(files.get('archive/version'))).toBe('3\n');
    expect(new TextDecoder().decode(files.get('archive/byteorder'))).toBe('little');
    // Four storages: encoder.weight's Float32Array is shared with ema, as torch shares one storage.
    expect(files.get('archive/data/0')).toEqual(new Uint8Array(Float32Array.from([-0.5, -0.25, 0, 0.25, 0.5, 0.75]).buffer));
    expect(writeTorchCheckpoint(sampleCheckpoint())).toEqual(bytes);
  });

  it('writes the state dict torch loaded into nn.Linear(3, 2) with strict=True', () => {
    const linear = dict(roundTrip(sampleLinear()));
    expect([...linear.keys()]).toEqual(['weight', 'bias']);
    expect(sum(tensor(linear.get('weight')).data as Float32Array)).toBe(-0.75);
    expect(sum(tensor(linear.get('bias')).data as Float32Array)).toBe(-0.875);
    // torch's linear(ones(3)): each row's sum plus its bias.
    const weight = tensor(linear.get('weight')).data;
    const bias = tensor(linear.get('bias')).data;
    expect([0, 1].map((row) => Number(weight[3 * row]) + Number(weight[3 * row + 1]) + Number(weight[3 * row + 2]) + Number(bias[row]))).toEqual([0.875, -2.5]);
  });

  it("uses only opcodes torch's weights_only unpickler accepts, the set torch's pickletools listed", () => {
    const pickle = readZipEntries(writeTorchCheckpoint(sampleCheckpoint()), 'checkpoint.pt').get('archive/data.pkl') as Uint8Array;
    const names = opcodeNames(pickle);
    expect(names.includes('BINFLOAT')).toBe(false);
    expect([...new Set(names)].sort()).toEqual([
      'APPENDS', 'BINGET', 'BININT', 'BININT1', 'BININT2', 'BINPERSID', 'BINPUT', 'BINUNICODE', 'EMPTY_LIST', 'EMPTY_TUPLE', 'GLOBAL', 'LONG1',
      'MARK', 'NEWFALSE', 'NEWTRUE', 'NONE', 'PROTO', 'REDUCE', 'SETITEM', 'SETITEMS', 'STOP', 'TUPLE', 'TUPLE1', 'TUPLE2', 'TUPLE3',
    ]);
    // Protocol 2, then collections.OrderedDict() as torch.save begins a state dict.
    expect([...pickle.subarray(0, 2)]).toEqual([0x80, 2]);
    expect(new TextDecoder().decode(pickle.subarray(2, 27))).toBe('ccollections\nOrderedDict\n');
  });

  it('writes each tensor as _rebuild_tensor_v2 of a FloatStorage, with contiguous strides', () => {
    const pickle = readZipEntries(writeTorchCheckpoint({ cube: { shape: [2, 0, 3], data: new Float32Array(0) } }), 'x').get('archive/data.pkl') as Uint8Array;
    const text = new TextDecoder('latin1').decode(pickle);
    expect(text).toContain('ctorch._utils\n_rebuild_tensor_v2\n');
    expect(text).toContain('ctorch\nFloatStorage\n');
    // size (2, 0, 3), stride (3, 3, 1) as torch.empty(2, 0, 3).stride() gives: BININT1 2, 0, 3, TUPLE3, BININT1 3, 3, 1, TUPLE3.
    expect(Buffer.from(pickle).includes(Buffer.from([0x4b, 2, 0x4b, 0, 0x4b, 3, 0x87, 0x4b, 3, 0x4b, 3, 0x4b, 1, 0x87]))).toBe(true);
  });
});

describe('writeTorchCheckpoint round-trips through readTorchCheckpoint', () => {
  it('writes an empty dict', () => {
    expect(dict(roundTrip({})).size).toBe(0);
    expect(dict(roundTrip(new Map())).size).toBe(0);
  });

  it.each([
    ['scalar', [] as number[]],
    ['1-D', [5]],
    ['2-D', [3, 4]],
    ['3-D', [2, 3, 4]],
    ['4-D', [2, 1, 3, 2]],
    ['empty', [0, 3]],
  ])('writes a %s tensor', (_, shape) => {
    const count = shape.reduce((product, size) => product * size, 1);
    const data = Float32Array.from({ length: count }, (__, index) => Math.fround(Math.sin(index + 1) * 1e3));
    const read = tensor(dict(roundTrip({ t: { shape, data } })).get('t'));
    expect(read.dtype).toBe('float32');
    expect(read.shape).toEqual(shape);
    expect(read.data).toEqual(data);
  });

  it('writes nested dicts given as Maps and objects, lists and tuples of any length', () => {
    const many = Array.from({ length: 2500 }, (_, index) => index);
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, index) => [`k${index}`, index]));
    const value = dict(roundTrip({ outer: new Map([['inner', { deep: [Object.freeze([1, 2, 3, 4, 5]), Object.freeze([]), [7]] }]]), many, wide, one: { only: 1 } }));
    expect(dict(dict(value.get('outer')).get('inner')).get('deep')).toEqual([[1, 2, 3, 4, 5], [], [7]]);
    expect(value.get('many')).toEqual(many);
    expect([...dict(value.get('wide')).entries()]).toEqual(Object.entries(wide));
    expect(dict(value.get('one')).get('only')).toBe(1);
  });

  it('writes every integer width exactly (BININT1, BININT2, BININT, LONG1)', () => {
    const ints = [0, 255, 256, 65535, 65536, -1, -256, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    const bigs = [2n ** 64n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 2000n];
    expect(roundTrip(ints)).toEqual(ints);
    expect(roundTrip(bigs)).toEqual(bigs);
    expect(roundTrip([-0])).toEqual([0]);
  });

  it('writes strings as UTF-8', () => {
    expect(roundTrip(['', 'é', '日本', '🙂', 'a\nb'])).toEqual(['', 'é', '日本', '🙂', 'a\nb']);
  });

  it('names the archive folder as asked, as the reader finds it', () => {
    const bytes = writeTorchCheckpoint({ w: { shape: [1], data: Float32Array.from([2]) } }, { archiveName: 'state 40' });
    expect([...readZipEntries(bytes, 'x').keys()][0]).toBe('state 40/data.pkl');
    expect(tensor(dict(readTorchCheckpoint(bytes)).get('w')).data).toEqual(Float32Array.from([2]));
  });
});

describe('writeTorchCheckpoint refuses what torch.load(weights_only=True) could not load, in one sentence', () => {
  const write = (value: unknown) => writeTorchCheckpoint(value as TorchWritable);

  it('refuses a float anywhere in the pickle, naming where it is', () => {
    expect(refusal(() => write({ optim: { lr: 0.001 } }))).toBe(
      "checkpoint.pt: 'optim.lr' is the float 0.001; floats would be pickled as BINFLOAT, which torch 1.13's torch.load(weights_only=True) refuses, so only integers are written (store it as a tensor of shape [] instead).",
    );
    expect(refusal(() => write({ xs: [1, 2.5] }))).toContain("'xs[1]' is the float 2.5;");
    expect(refusal(() => write({ bad: Number.NaN }))).toContain("'bad' is the float NaN;");
    expect(refusal(() => write({ bad: Number.POSITIVE_INFINITY }))).toContain("'bad' is the float Infinity;");
    expect(refusal(() => write(0.5))).toContain('checkpoint.pt: the value is the float 0.5;');
  });

  it('refuses integers past 2^53 as numbers, bigints past LONG1, and non-float32 tensors', () => {
    expect(refusal(() => write({ n: 2 ** 60 }))).toContain('pass it as a bigint');
    expect(refusal(() => write({ n: 2n ** 2100n }))).toContain('LONG4 is refused');
    expect(refusal(() => write({ t: { shape: [2], data: new Float64Array(2) } }))).toContain("'t' is a tensor of Float64Array; only float32 tensors");
    expect(refusal(() => write({ t: new ForeignTensor('int64', [1], new BigInt64Array(1)) }))).toContain("'t' is a tensor of int64;");
    expect(refusal(() => write({ t: { shape: [2, 2], data: new Float32Array(3) } }))).toContain("'t' has shape [2, 2] (4 values) but 3 values.");
    expect(refusal(() => write({ t: { shape: [1.5], data: new Float32Array(1) } }))).toContain("'t' has a shape that is not a list of whole sizes.");
  });

  it('refuses values with no pickle form here, cycles and non-string keys', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(refusal(() => write(cyclic))).toContain("'self' contains itself");
    expect(refusal(() => write({ when: new Date(0) }))).toContain("'when' is a Date");
    expect(refusal(() => write({ raw: new Uint8Array(2) }))).toContain("'raw' is a Uint8Array");
    expect(refusal(() => write({ missing: undefined }))).toContain("'missing' is undefined");
    expect(refusal(() => write(new Map([[1, 2]])))).toContain('has a number key; only string keys are written.');
    expect(refusal(() => write({ s: 'bad \ud800' }))).toContain('lone surrogate');
    expect(refusal(() => writeTorchCheckpoint({}, { archiveName: 'a/b' }))).toContain("the archive name 'a/b' must be one folder name");
    expect(refusal(() => writeTorchCheckpoint({}, { archiveName: '..' }))).toContain("the archive name '..'");
  });
});
