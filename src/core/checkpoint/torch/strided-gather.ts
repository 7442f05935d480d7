import { CheckpointError } from '../../errors';
import { ForeignTensor, ITEM_SIZE, allocateData, readBigInt, readNumber, type ForeignDtype } from './tensor-dtypes';

/** Where a tensor's elements lie in its storage, counted in elements (torch's view). */
export interface StridedView {
  readonly offset: number;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
}

/** A remaining allowance of elements, shared by all tensors of one file. */
export interface ElementBudget {
  remaining: number;
}

const littleEndianPlatform = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Product of sizes, or -1 past 2^53. */
function elementCount(shape: readonly number[]): number {
  let count = 1;
  for (const size of shape) {
    count *= size;
    if (!Number.isSafeInteger(count)) return -1;
  }
  return count;
}

function isContiguous(view: StridedView): boolean {
  let expected = 1;
  for (let axis = view.shape.length - 1; axis >= 0; axis--) {
    if (view.shape[axis] !== 1 && view.strides[axis] !== expected) return false;
    expected *= view.shape[axis];
  }
  return true;
}

/**
 * Copies the view's elements out of `storage` in row-major order (a transposed
 * or sliced view is gathered), after checking every index it reads lies inside
 * the storage and that the copy fits the budget. `what` names the storage in errors.
 */
export function gatherStrided(
  storage: Uint8Array, dtype: ForeignDtype, view: StridedView, littleEndian: boolean,
  budget: ElementBudget, label: string, what: string,
): ForeignTensor {
  const { offset, shape, strides } = view;
  const wholeNumbers = [offset, ...shape, ...strides].every((value) => Number.isSafeInteger(value) && value >= 0);
  if (!wholeNumbers || shape.length !== strides.length) {
    throw new CheckpointError(
      `${label}: ${what} has a malformed view (offset ${offset}, shape [${shape.join(', ')}], strides [${strides.join(', ')}]); sizes, strides and offset must be non-negative integers, one stride per axis.`,
    );
  }
  const count = elementCount(shape);
  if (count < 0 || count > budget.remaining) {
    throw new CheckpointError(
      `${label}: ${what} declares a tensor of shape [${shape.join(', ')}], more elements than the file may hold in memory (${budget.remaining} left of the limit).`,
    );
  }
  budget.remaining -= count;
  const itemSize = ITEM_SIZE[dtype];
  const storageElements = Math.floor(storage.length / itemSize);
  if (count > 0) {
    let last = offset;
    for (let axis = 0; axis < shape.length; axis++) last += (shape[axis] - 1) * strides[axis];
    if (last >= storageElements) {
      throw new CheckpointError(
        `${label}: ${what} holds ${storageElements} ${dtype} values but a tensor of shape [${shape.join(', ')}] at offset ${offset} reads up to element ${last}; the storage is shorter than the tensor.`,
      );
    }
  }
  if (dtype === 'float32' && littleEndian && littleEndianPlatform && isContiguous(view)) {
    // The common case: one copy, no per-element decoding.
    const start = storage.byteOffset + offset * 4;
    return new ForeignTensor(dtype, [...shape], new Float32Array(storage.buffer.slice(start, start + count * 4)));
  }
  const data = allocateData(dtype, count);
  const bytes = new DataView(storage.buffer, storage.byteOffset, storage.byteLength);
  const index = new Array<number>(shape.length).fill(0);
  let source = offset;
  for (let flat = 0; flat < count; flat++) {
    const byteOffset = source * itemSize;
    if (data instanceof Float32Array) data[flat] = readNumber(bytes, byteOffset, dtype, littleEndian);
    else data[flat] = readBigInt(bytes, byteOffset, dtype, littleEndian);
    // Odometer step over the multi-index, last axis fastest.
    for (let axis = shape.length - 1; axis >= 0; axis--) {
      index[axis]++;
      source += strides[axis];
      if (index[axis] < shape[axis]) break;
      source -= strides[axis] * shape[axis];
      index[axis] = 0;
    }
  }
  return new ForeignTensor(dtype, [...shape], data);
}
