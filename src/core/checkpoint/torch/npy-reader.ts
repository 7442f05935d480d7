import { CheckpointError } from '../../errors';
import { ByteCursor, latin1 } from './byte-cursor';
import { parseNpyHeader } from './npy-header';
import { gatherStrided, type ElementBudget } from './strided-gather';
import { ITEM_SIZE, type ForeignDtype, type ForeignTensor } from './tensor-dtypes';

/** numpy type codes (kind + bytes) that we read; the byte-order character comes before them. */
const NPY_DTYPES: Readonly<Record<string, ForeignDtype>> = {
  f4: 'float32', f8: 'float64', f2: 'float16',
  i8: 'int64', i4: 'int32', u4: 'uint32', i2: 'int16', u2: 'uint16', i1: 'int8', u1: 'uint8', b1: 'bool',
};

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** The dtype and byte order a descr such as '<f4' or '|b1' names, or a refusal naming it. */
function npyDtype(descr: string, label: string): { dtype: ForeignDtype; littleEndian: boolean } {
  if (descr.endsWith('O')) {
    throw new CheckpointError(`${label}: it holds an object array (dtype '${descr}'), which numpy stores as a pickle; refusing to load it.`);
  }
  const order = descr[0];
  const dtype = NPY_DTYPES[descr.slice(1)];
  if (!'<>|='.includes(order) || dtype === undefined) {
    throw new CheckpointError(`${label}: its dtype '${descr}' is not read; allowed: ${Object.keys(NPY_DTYPES).join(', ')} in either byte order.`);
  }
  return { dtype, littleEndian: order !== '>' };
}

/** Element strides of a dense array; Fortran order is column-major, its first axis the fastest. */
function elementStrides(shape: readonly number[], fortranOrder: boolean): number[] {
  const strides = shape.map(() => 1);
  if (fortranOrder) for (let axis = 1; axis < shape.length; axis++) strides[axis] = strides[axis - 1] * shape[axis - 1];
  else for (let axis = shape.length - 2; axis >= 0; axis--) strides[axis] = strides[axis + 1] * shape[axis + 1];
  return strides;
}

/**
 * Reads one `.npy` array (format 1.0 to 3.0) as a row-major ForeignTensor; a
 * Fortran-order array is gathered into row-major order.
 */
export function readNpy(bytes: Uint8Array, label: string, budget: ElementBudget = { remaining: Number.MAX_SAFE_INTEGER }): ForeignTensor {
  const cursor = new ByteCursor(bytes, label, 'npy file');
  const magic = cursor.bytesView(6);
  if (!MAGIC.every((byte, index) => magic[index] === byte)) {
    throw new CheckpointError(`${label}: is not a .npy array (it lacks numpy's magic bytes).`);
  }
  const major = cursor.u8();
  cursor.u8();
  if (major < 1 || major > 3) throw new CheckpointError(`${label}: its npy format version ${major} is not read; versions 1 to 3 are.`);
  const headerLength = major === 1 ? cursor.u16le() : cursor.u32le();
  const headerBytes = cursor.bytesView(headerLength);
  const header = parseNpyHeader(major === 3 ? new TextDecoder().decode(headerBytes) : latin1(headerBytes), label);
  const { dtype, littleEndian } = npyDtype(header.descr, label);
  const { shape } = header;
  const strides = elementStrides(shape, header.fortranOrder);
  const data = bytes.subarray(cursor.offset);
  const count = shape.reduce((a, b) => a * b, 1);
  if (count * ITEM_SIZE[dtype] > data.length) {
    throw new CheckpointError(`${label}: its header declares shape [${shape.join(', ')}] of ${dtype} (${count * ITEM_SIZE[dtype]} bytes) but only ${data.length} bytes follow; the file is truncated.`);
  }
  return gatherStrided(data, dtype, { offset: 0, shape, strides }, littleEndian, budget, label, 'the array');
}
