import { CheckpointError } from '../../errors';
import { littleEndianBytes } from './little-endian-bytes';

/** An array to write as `.npy`: row-major (C order) values and sizes per axis ([] for a scalar). */
export interface NpyArray {
  readonly shape: readonly number[];
  readonly data: Float32Array | Float64Array;
}

/** numpy pads the header so the data starts at a multiple of this (numpy.lib.format.ARRAY_ALIGN). */
const ARRAY_ALIGN = 64;
/** numpy leaves room for the first axis to grow to this many digits (numpy.lib.format.GROWTH_AXIS_MAX_DIGITS). */
const GROWTH_AXIS_MAX_DIGITS = 21;
const MAGIC_AND_VERSION_1 = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]; // \x93NUMPY, format 1.0

/** Python's repr of a tuple of ints: (), (3,), (2, 3). */
function shapeRepr(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

/**
 * A `.npy` file (format 1.0) byte for byte as numpy 1.24's `np.save` writes a
 * C-order `<f4` or `<f8` array: the header dict with its keys sorted, the spare
 * spaces numpy leaves for the first axis to grow, then spaces and a newline up to
 * a multiple of 64 bytes, then the little-endian values.
 */
export function writeNpy(array: NpyArray, label = 'array.npy'): Uint8Array {
  const { shape, data } = array;
  const descr = data instanceof Float32Array ? '<f4' : data instanceof Float64Array ? '<f8' : undefined;
  if (descr === undefined) throw new CheckpointError(`${label}: only Float32Array and Float64Array data are written.`);
  if (!Array.isArray(shape) || !shape.every((size) => Number.isSafeInteger(size) && size >= 0)) {
    throw new CheckpointError(`${label}: its shape is not a list of whole sizes.`);
  }
  const count = shape.reduce((product, size) => product * size, 1);
  if (count !== data.length) throw new CheckpointError(`${label}: its shape [${shape.join(', ')}] holds ${count} values but its data has ${data.length}.`);

  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeRepr(shape)}, }`;
  if (shape.length > 0) header += ' '.repeat(GROWTH_AXIS_MAX_DIGITS - String(shape[0]).length);
  // numpy's _wrap_header: a newline ends the header, and padlen is never 0 (a whole 64 when already aligned).
  const unpadded = MAGIC_AND_VERSION_1.length + 2 + header.length + 1;
  header += `${' '.repeat(ARRAY_ALIGN - (unpadded % ARRAY_ALIGN))}\n`;
  if (header.length > 0xffff) throw new CheckpointError(`${label}: its header of ${header.length} bytes is longer than format 1.0 holds.`);

  const values = littleEndianBytes(data);
  const prefix = MAGIC_AND_VERSION_1.length + 2;
  const bytes = new Uint8Array(prefix + header.length + values.length);
  bytes.set(MAGIC_AND_VERSION_1);
  bytes[8] = header.length & 0xff;
  bytes[9] = header.length >> 8;
  // The header is ASCII (digits, quotes, spaces), so its latin1 bytes are its characters.
  for (let index = 0; index < header.length; index++) bytes[prefix + index] = header.charCodeAt(index);
  bytes.set(values, prefix + header.length);
  return bytes;
}
