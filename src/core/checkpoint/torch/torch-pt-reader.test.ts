import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PickleBuilder, float32Bytes, stateDictPickle, torchZip } from './fixtures/pickle-builder';
import { isPickleDict, stateDictTensors, type PickleValue } from './pickle-values';
import { ForeignTensor } from './tensor-dtypes';
import { readTorchCheckpoint } from './torch-pt-reader';
import { refusal } from './fixtures/refusal';

const read = (bytes: Uint8Array, maxBytes?: number) => readTorchCheckpoint(bytes, { label: 'checkpoint.pt', maxBytes });

function tensors(value: PickleValue): Map<string, ForeignTensor> {
  if (!isPickleDict(value)) throw new Error('expected a dict');
  return stateDictTensors(value);
}


const SIX = float32Bytes([0, 1, 2, 3, 4, 5]);

describe('readTorchCheckpoint on torch.save layouts', () => {
  it('reads a state dict, honouring storage offset and strides (transposed and sliced views are gathered)', () => {
    const pickle = stateDictPickle({
      whole: ['FloatStorage', '0', 6, 0, [2, 3], [3, 1]],
      transposed: ['FloatStorage', '0', 6, 0, [3, 2], [1, 3]],
      sliced: ['FloatStorage', '0', 6, 2, [2], [2]],
      scalar: ['FloatStorage', '0', 6, 5, [], []],
      broadcast: ['FloatStorage', '0', 6, 1, [2, 2], [0, 1]],
    });
    const read6 = tensors(read(torchZip(pickle, { 0: SIX })));
    expect([...read6.keys()]).toEqual(['whole', 'transposed', 'sliced', 'scalar', 'broadcast']);
    expect(read6.get('whole')?.shape).toEqual([2, 3]);
    expect([...(read6.get('whole')?.data ?? [])]).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...(read6.get('transposed')?.data ?? [])]).toEqual([0, 3, 1, 4, 2, 5]);
    expect([...(read6.get('sliced')?.data ?? [])]).toEqual([2, 4]);
    expect(read6.get('scalar')?.shape).toEqual([]);
    expect([...(read6.get('scalar')?.data ?? [])]).toEqual([5]);
    expect([...(read6.get('broadcast')?.data ?? [])]).toEqual([1, 2, 1, 2]);
  });

  it('converts float64, half and bfloat16 to float32; int64 stays exact in a BigInt64Array; bool becomes 0/1', () => {
    const float64 = new Uint8Array(new Float64Array([0.1, -2.5]).buffer);
    const half = new Uint8Array(new Uint16Array([0x3c00, 0xc000]).buffer); // 1, -2
    const bfloat16 = new Uint8Array(new Uint16Array([0x3f80, 0x4049]).buffer); // 1, 3.140625
    const int64 = new Uint8Array(new BigInt64Array([9007199254740993n, -7n]).buffer);
    const pickle = stateDictPickle({
      double: ['DoubleStorage', 'd', 2, 0, [2], [1]],
      half: ['HalfStorage', 'h', 2, 0, [2], [1]],
      bf16: ['BFloat16Storage', 'b', 2, 0, [2], [1]],
      long: ['LongStorage', 'l', 2, 0, [2], [1]],
      flags: ['BoolStorage', 'f', 3, 0, [3], [1]],
    });
    const read5 = tensors(read(torchZip(pickle, { d: float64, h: half, b: bfloat16, l: int64, f: Uint8Array.from([1, 0, 1]) })));
    expect(read5.get('double')?.dtype).toBe('float64');
    expect([...(read5.get('double')?.data ?? [])]).toEqual([Math.fround(0.1), -2.5]);
    expect([...(read5.get('half')?.data ?? [])]).toEqual([1, -2]);
    expect([...(read5.get('bf16')?.data ?? [])]).toEqual([1, 3.140625]);
    expect(read5.get('long')?.data).toBeInstanceOf(BigInt64Array);
    expect([...(read5.get('long')?.data ?? [])]).toEqual([9007199254740993n, -7n]);
    expect([...(read5.get('flags')?.data ?? [])]).toEqual([1, 0, 1]);
  });

  it("reads big-endian storages when the archive's byteorder says so", () => {
    const bigEndian = new Uint8Array(8);
    new DataView(bigEndian.buffer).setFloat32(0, 1.5, false);
    new DataView(bigEndian.buffer).setFloat32(4, -3, false);
    const zip = torchZip(stateDictPickle({ w: ['FloatStorage', '0', 2, 0, [2], [1]] }), { 0: bigEndian }, { 'archive/byteorder': new TextEncoder().encode('big') });
    expect([...(tensors(read(zip)).get('w')?.data ?? [])]).toEqual([1.5, -3]);
  });

  it('reads containers, numbers and strings around the state dict', () => {
    const pickle = new PickleBuilder().proto().op(0x7d).mark()
      .unicode('epoch').int(40)
      .unicode('big').op(0x8a, 8, 0, 0, 0, 0, 0, 0, 0, 0x80) // LONG1: -2^63
      .unicode('lr').op(0x47, 0x3f, 0x50, 0x62, 0x4d, 0xd2, 0xf1, 0xa9, 0xfc) // BINFLOAT 0.001
      .unicode('flags').op(0x5d).mark().op(0x88, 0x89, 0x4e).op(0x65) // [True, False, None]
      .unicode('dtype').global('torch', 'float32')
      .endDict().build();
    const value = read(torchZip(pickle, {}));
    expect(isPickleDict(value)).toBe(true);
    const dict = value as Map<PickleValue, PickleValue>;
    expect(dict.get('epoch')).toBe(40);
    expect(dict.get('big')).toBe(-(2n ** 63n));
    expect(dict.get('lr')).toBe(0.001);
    expect(dict.get('flags')).toEqual([true, false, null]);
    expect(dict.get('dtype')).toMatchObject({ module: 'torch', name: 'float32', kind: 'dtype' });
  });

  it('appends a batch of 200,000 items without overflowing the call stack', () => {
    const nones = new Uint8Array(200_000).fill(0x4e);
    const pickle = Uint8Array.from([0x80, 0x02, 0x5d, 0x28, ...nones, 0x65, 0x2e]);
    expect((read(torchZip(pickle, {})) as PickleValue[]).length).toBe(200_000);
  });
});

describe('readTorchCheckpoint refuses what a state dict never holds, in one sentence', () => {
  const callGlobal = (module: string, name: string) =>
    torchZip(new PickleBuilder().proto().global(module, name).unicode('echo owned').op(0x85, 0x52).build(), {});

  it.each([
    ['os', 'system'],
    ['builtins', 'eval'],
    ['__builtin__', 'exec'],
    ['posix', 'system'],
    ['torch', 'load'],
  ])("refuses the global '%s.%s' before anything is called", (module, name) => {
    expect(refusal(() => read(callGlobal(module, name)))).toBe(
      `checkpoint.pt: the pickle names the global '${module}.${name}', which a state dict never needs; refusing to load it.`,
    );
  });

  it('refuses a global named through STACK_GLOBAL (protocol 4) the same way', () => {
    const pickle = new PickleBuilder().proto(4).op(0x8c, 8, ...new TextEncoder().encode('builtins'))
      .op(0x8c, 4, ...new TextEncoder().encode('exec')).op(0x93).build();
    expect(refusal(() => read(torchZip(pickle, {})))).toContain("the global 'builtins.exec'");
  });

  it('refuses a whole pickled model (a custom class), as torch.save(model) writes it', () => {
    const pickle = new PickleBuilder().proto().global('model.flow.reflow', 'ReFlow').op(0x29, 0x81).op(0x7d).op(0x62).build();
    expect(refusal(() => read(torchZip(pickle, {})))).toContain("the global 'model.flow.reflow.ReFlow', which a state dict never needs");
  });

  it('refuses opcodes that build objects by name (INST)', () => {
    const pickle = new PickleBuilder().proto().op(0x28, 0x69, ...new TextEncoder().encode('os\nsystem\n')).build();
    expect(refusal(() => read(torchZip(pickle, {})))).toContain('the opcode INST');
  });

  it('refuses a truncated zip, and bytes that are no zip at all', () => {
    const zip = torchZip(stateDictPickle({ w: ['FloatStorage', '0', 6, 0, [6], [1]] }), { 0: SIX });
    expect(refusal(() => read(zip.subarray(0, zip.length - 30)))).toContain('is not a complete zip archive');
    expect(refusal(() => read(zip.subarray(0, 100)))).toContain('is not a complete zip archive');
    expect(refusal(() => read(new TextEncoder().encode('\x80\x02}q\x00.')))).toContain('is not a zip archive');
  });

  it('refuses a zip without data.pkl', () => {
    expect(refusal(() => read(zipSync({ 'notes.txt': new Uint8Array(3) })))).toContain("holds no '<name>/data.pkl'");
  });

  it('refuses a storage key the archive does not hold', () => {
    const zip = torchZip(stateDictPickle({ w: ['FloatStorage', '7', 6, 0, [6], [1]] }), { 0: SIX });
    expect(refusal(() => read(zip))).toBe(
      "checkpoint.pt: the pickle refers to storage '7', but the archive holds no 'archive/data/7'; the file is truncated or corrupt.",
    );
  });

  it('refuses a storage that declares more values than its entry holds', () => {
    const zip = torchZip(stateDictPickle({ w: ['FloatStorage', '0', 1_000_000_000, 0, [6], [1]] }), { 0: SIX });
    expect(refusal(() => read(zip))).toBe(
      "checkpoint.pt: storage '0' declares 1000000000 float32 values (4000000000 bytes) but the archive holds 24 bytes for it; the file is truncated or corrupt.",
    );
  });

  it('refuses a tensor that reads past the end of its storage', () => {
    const zip = torchZip(stateDictPickle({ w: ['FloatStorage', '0', 6, 2, [2, 3], [3, 1]] }), { 0: SIX });
    expect(refusal(() => read(zip))).toContain("storage '0' holds 6 float32 values but a tensor of shape [2, 3] at offset 2 reads up to element 7; the storage is shorter than the tensor.");
  });

  it('refuses a hostile shape that would allocate gigabytes from one stored value', () => {
    const zip = torchZip(stateDictPickle({ w: ['FloatStorage', '0', 1, 0, [65535, 65535], [0, 0]] }), { 0: float32Bytes([1]) });
    expect(refusal(() => read(zip))).toContain('declares a tensor of shape [65535, 65535], more elements than the file may hold in memory');
  });

  it('refuses a declared string length longer than the pickle', () => {
    const pickle = Uint8Array.from([0x80, 0x02, 0x58, 0xff, 0xff, 0xff, 0xff, 0x61, 0x2e]);
    expect(refusal(() => read(torchZip(pickle, {})))).toContain('the pickle ends early: 4294967295 more bytes are declared');
  });

  it('refuses a read of a memo entry that was never stored', () => {
    expect(refusal(() => read(torchZip(Uint8Array.from([0x80, 0x02, 0x6a, 0, 0, 0, 1, 0x2e]), {})))).toContain('memo entry 16777216, which was never stored');
  });

  it('refuses an archive whose total unpacked size passes the limit', () => {
    const zip = torchZip(stateDictPickle({ w: ['FloatStorage', '0', 6, 0, [6], [1]] }), { 0: SIX });
    expect(refusal(() => read(zip, 64))).toContain('the archive unpacks to more than 64 bytes');
  });
});
