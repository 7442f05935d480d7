import { bf16BitsToNumber, f16BitsToNumber } from '../half-float';

/** Element types of tensors read from `.pt` storages and `.npy` arrays. */
export type ForeignDtype =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int64' | 'int32' | 'uint32' | 'int16' | 'uint16' | 'int8' | 'uint8' | 'bool';

/**
 * Floats (float64, half and bfloat16 upcast) and integers that float32 holds exactly
 * (16 bits or fewer, bool) become Float32Array. int32, uint32 and int64 become
 * BigInt64Array: they hold counts and indices (a step counter, `traj_lengths`),
 * which float32's 24-bit mantissa would silently round past 16,777,216.
 */
export type ForeignTensorData = Float32Array | BigInt64Array;

/** A tensor read from a foreign file: row-major (C order) data, gathered from any view. */
export class ForeignTensor {
  constructor(
    readonly dtype: ForeignDtype,
    /** Sizes per axis; [] for a scalar (one element). */
    readonly shape: readonly number[],
    readonly data: ForeignTensorData,
  ) {}

  get size(): number {
    return this.data.length;
  }
}

/** Bytes per element. */
export const ITEM_SIZE: Readonly<Record<ForeignDtype, number>> = {
  float32: 4, float64: 8, float16: 2, bfloat16: 2,
  int64: 8, int32: 4, uint32: 4, int16: 2, uint16: 2, int8: 1, uint8: 1, bool: 1,
};

/** True where the dtype's data is a BigInt64Array rather than a Float32Array. */
export function isWideInteger(dtype: ForeignDtype): boolean {
  return dtype === 'int64' || dtype === 'int32' || dtype === 'uint32';
}

/** An empty data array of the dtype's kind. */
export function allocateData(dtype: ForeignDtype, length: number): ForeignTensorData {
  return isWideInteger(dtype) ? new BigInt64Array(length) : new Float32Array(length);
}

/** The element at `byteOffset` as a number (for Float32Array data). */
export function readNumber(view: DataView, byteOffset: number, dtype: ForeignDtype, littleEndian: boolean): number {
  switch (dtype) {
    case 'float32': return view.getFloat32(byteOffset, littleEndian);
    case 'float64': return view.getFloat64(byteOffset, littleEndian);
    case 'float16': return f16BitsToNumber(view.getUint16(byteOffset, littleEndian));
    case 'bfloat16': return bf16BitsToNumber(view.getUint16(byteOffset, littleEndian));
    case 'int16': return view.getInt16(byteOffset, littleEndian);
    case 'uint16': return view.getUint16(byteOffset, littleEndian);
    case 'int8': return view.getInt8(byteOffset);
    case 'uint8': return view.getUint8(byteOffset);
    case 'bool': return view.getUint8(byteOffset) === 0 ? 0 : 1;
    default: return Number(readBigInt(view, byteOffset, dtype, littleEndian));
  }
}

/** The element at `byteOffset` as a bigint (for BigInt64Array data). */
export function readBigInt(view: DataView, byteOffset: number, dtype: ForeignDtype, littleEndian: boolean): bigint {
  switch (dtype) {
    case 'int64': return view.getBigInt64(byteOffset, littleEndian);
    case 'int32': return BigInt(view.getInt32(byteOffset, littleEndian));
    case 'uint32': return BigInt(view.getUint32(byteOffset, littleEndian));
    default: return BigInt(Math.trunc(readNumber(view, byteOffset, dtype, littleEndian)));
  }
}

/** A Float32Array copy of any tensor's values (int64 beyond 2^24 rounds, as float32 must). */
export function toFloat32(tensor: ForeignTensor): Float32Array {
  if (tensor.data instanceof Float32Array) return tensor.data;
  return Float32Array.from(tensor.data, (value) => Number(value));
}
