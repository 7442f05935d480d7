import { CheckpointError } from '../errors';
import { bf16BitsToNumber, f16BitsToNumber } from './half-float';
import { DTYPE_BYTES, STORED_DTYPES, type StoredDtype, type TensorData } from './checkpoint-types';

/**
 * One tensor as a file describes it, before any byte is trusted: its byte
 * range [begin, end) is relative to the start of the data section.
 * Both formats (safetensors, tfjs) reduce to these, so one validator serves both.
 */
export interface RawTensorRecord {
  name: string;
  /** As written in the file; checked against STORED_DTYPES. */
  dtype: string;
  shape: number[];
  begin: number;
  end: number;
}

/** A record whose dtype, shape and byte range have passed checkLayout. */
export interface CheckedTensorRecord extends RawTensorRecord {
  dtype: StoredDtype;
}

function fail(message: string): never {
  throw new CheckpointError(message);
}

export const formatShape = (shape: readonly number[]): string => `[${shape.join(',')}]`;

/** product(shape); [] gives 1. */
export function elementCount(shape: readonly number[]): number {
  return shape.reduce((product, size) => product * size, 1);
}

/**
 * Checks every record against the data section: known dtype, integral shape,
 * byte length = product(shape) × dtype size, range inside the section, no two
 * ranges overlapping, and no byte left over. Returns the records typed. `dataStart` is the bytes of
 * the file before its data section, so a cut-short file's message gives whole-file sizes.
 */
export function checkLayout(records: readonly RawTensorRecord[], dataByteLength: number, dataStart = 0): CheckedTensorRecord[] {
  const seen = new Set<string>();
  for (const record of records) {
    if (record.name === '') fail('checkpoint has a tensor with an empty name');
    if (seen.has(record.name)) fail(`checkpoint lists tensor ${record.name} twice`);
    seen.add(record.name);
    if (!STORED_DTYPES.includes(record.dtype as StoredDtype)) {
      fail(`tensor ${record.name} has dtype '${record.dtype}'; allowed dtypes are ${STORED_DTYPES.join(', ')}`);
    }
    if (!record.shape.every((size) => Number.isSafeInteger(size) && size >= 0) || !Number.isSafeInteger(elementCount(record.shape))) {
      fail(`tensor ${record.name} has shape ${JSON.stringify(record.shape)}, which is not a list of non-negative integers`);
    }
    if (!Number.isSafeInteger(record.begin) || !Number.isSafeInteger(record.end) || record.begin < 0 || record.end < record.begin) {
      fail(`tensor ${record.name} has data_offsets [${record.begin},${record.end}], which is not an ordered pair of non-negative integers`);
    }
    if (record.end > dataByteLength) {
      // What the user can act on first (the file is incomplete), the internals after.
      const needed = Math.max(...records.map((entry) => (Number.isSafeInteger(entry.end) ? entry.end : 0)));
      fail(`the file is cut short (${dataStart + dataByteLength} of ${dataStart + needed} bytes): tensor ${record.name} has data_offsets [${record.begin},${record.end}] beyond the ${dataByteLength}-byte data section`);
    }
    const needed = elementCount(record.shape) * DTYPE_BYTES[record.dtype as StoredDtype];
    if (record.end - record.begin !== needed) {
      fail(`tensor ${record.name} has ${record.end - record.begin} bytes, but shape ${formatShape(record.shape)} of ${record.dtype} needs ${needed}`);
    }
  }
  const byStart = records.filter((record) => record.end > record.begin).sort((a, b) => a.begin - b.begin);
  let covered = 0;
  for (let position = 0; position < byStart.length; position++) {
    const record = byStart[position];
    if (position > 0 && record.begin < byStart[position - 1].end) {
      const previous = byStart[position - 1];
      fail(`tensors ${previous.name} and ${record.name} overlap in the data section ([${previous.begin},${previous.end}] and [${record.begin},${record.end}])`);
    }
    covered += record.end - record.begin;
  }
  if (covered !== dataByteLength) fail(`checkpoint data section has ${dataByteLength - covered} bytes that belong to no tensor`);
  return records as CheckedTensorRecord[];
}

/**
 * Compares the file's tensors with the shapes a live model needs: a missing
 * tensor, an unexpected one and a different shape are each an error. `kind`
 * names the group in messages ('tensor' or 'optimizer tensor').
 */
export function checkExpectedShapes(records: readonly RawTensorRecord[], expected: ReadonlyMap<string, readonly number[]>, kind: string): void {
  const byName = new Map(records.map((record) => [record.name, record]));
  for (const [name, shape] of expected) {
    const record = byName.get(name);
    if (record === undefined) fail(`checkpoint has no ${kind} ${name}, which the model needs`);
    else if (formatShape(record.shape) !== formatShape(shape)) fail(`${kind} ${name} has shape ${formatShape(record.shape)}, expected ${formatShape(shape)}`);
  }
  for (const record of records) {
    if (!expected.has(record.name)) fail(`checkpoint has ${kind} ${record.name}, which the model does not have`);
  }
}

/** Index of the first NaN or ±Infinity, or −1. */
export function firstNonFinite(values: Float32Array): number {
  for (let index = 0; index < values.length; index++) if (!Number.isFinite(values[index])) return index;
  return -1;
}

/** Throws a CheckpointError naming the tensor and element when a value is NaN or ±Infinity. */
export function checkFinite(name: string, values: Float32Array): void {
  const index = firstNonFinite(values);
  if (index >= 0) fail(`tensor ${name} has a non-finite value (${values[index]}) at element ${index}`);
}

const littleEndianHost = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Reads one checked record from the data section as float32 (F16 and BF16 upcast) and checks finiteness. */
export function decodeRecord(record: CheckedTensorRecord, data: Uint8Array): TensorData {
  const count = elementCount(record.shape);
  const bytes = data.subarray(record.begin, record.end);
  let values: Float32Array;
  if (record.dtype === 'F32' && littleEndianHost) {
    // A copy into a fresh buffer is aligned and bit-identical.
    values = new Float32Array(bytes.slice().buffer, 0, count);
  } else {
    values = new Float32Array(count);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (record.dtype === 'F32') for (let index = 0; index < count; index++) values[index] = view.getFloat32(index * 4, true);
    else if (record.dtype === 'F16') for (let index = 0; index < count; index++) values[index] = f16BitsToNumber(view.getUint16(index * 2, true));
    else for (let index = 0; index < count; index++) values[index] = bf16BitsToNumber(view.getUint16(index * 2, true));
  }
  checkFinite(record.name, values);
  return { shape: [...record.shape], data: values };
}
