import { CheckpointError } from '../../errors';
import { littleEndianBytes } from './little-endian-bytes';
import { PICKLE_BATCH_SIZE, PickleWriter } from './pickle-writer';
import { writeStoredZip } from './zip-writer';

/** A float32 tensor to write: row-major (C order) values and sizes per axis ([] for a scalar). */
export interface Float32Tensor {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

/**
 * What writeTorchCheckpoint writes: dicts (plain objects or Maps with string
 * keys) become `collections.OrderedDict`, arrays lists, frozen arrays tuples (as
 * the reader returns tuples), integers (number or bigint) ints, and
 * `{ shape, data: Float32Array }` float32 tensors. Non-integer numbers are refused.
 */
export type TorchWritable =
  | null | boolean | number | bigint | string | Float32Tensor
  | readonly TorchWritable[]
  | ReadonlyMap<string, TorchWritable>
  | { readonly [key: string]: TorchWritable };

export interface TorchWriteOptions {
  /** File name for error sentences. */
  readonly label?: string;
  /** The archive's folder (`<name>/data.pkl`); torch.save names it after the file, newer torch 'archive'. */
  readonly archiveName?: string;
}

/** torch.save starts every entry's data at a multiple of 64 bytes. */
export const TORCH_STORAGE_ALIGNMENT = 64;

/** Row-major strides, with size-0 and size-1 axes counted as 1, as torch's contiguous tensors have them. */
function contiguousStrides(shape: readonly number[]): number[] {
  const strides = shape.map(() => 1);
  for (let axis = shape.length - 2; axis >= 0; axis--) strides[axis] = strides[axis + 1] * Math.max(shape[axis + 1], 1);
  return strides;
}

function isPlainObject(value: object): value is { readonly [key: string]: TorchWritable } {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Serialises values into the pickle and collects the tensors' storages. */
class CheckpointPickler {
  readonly pickle: PickleWriter;
  /** Storage key and little-endian bytes, in the order the pickle first names them. */
  readonly storages: Array<[string, Uint8Array]> = [];
  private readonly storageKeys = new Map<Float32Array, string>();
  private readonly open = new Set<object>();

  constructor(private readonly label: string) {
    this.pickle = new PickleWriter(label);
  }

  private fail(path: string, message: string): never {
    throw new CheckpointError(`${this.label}: ${path ? `'${path}'` : 'the value'} ${message}`);
  }

  write(value: TorchWritable | undefined, path: string): void {
    const { pickle } = this;
    if (value === null) pickle.none();
    else if (typeof value === 'boolean') pickle.bool(value);
    else if (typeof value === 'bigint') pickle.int(value);
    else if (typeof value === 'string') pickle.unicode(value);
    else if (typeof value === 'number') this.writeNumber(value, path);
    else if (typeof value === 'object') this.writeObject(value, path);
    else this.fail(path, `is ${value === undefined ? 'undefined' : `a ${typeof value}`}, which has no place in a checkpoint.`);
  }

  private writeNumber(value: number, path: string): void {
    if (!Number.isInteger(value)) {
      this.fail(path, `is the float ${value}; floats would be pickled as BINFLOAT, which torch 1.13's torch.load(weights_only=True) refuses, so only integers are written (store it as a tensor of shape [] instead).`);
    }
    if (!Number.isSafeInteger(value)) this.fail(path, `is ${value}, past 2^53 where a number is no longer an exact integer; pass it as a bigint.`);
    this.pickle.int(value);
  }

  private writeObject(value: object, path: string): void {
    if (this.open.has(value)) this.fail(path, 'contains itself; a checkpoint is a tree.');
    this.open.add(value);
    if (Array.isArray(value)) {
      if (Object.isFrozen(value)) this.writeTuple(value, path);
      else this.writeList(value, path);
    } else if (value instanceof Map) {
      this.writeDict([...value.entries()], path);
    } else if ('data' in value && ArrayBuffer.isView(value.data)) {
      this.writeTensor(value as { shape?: unknown; data: ArrayBufferView; dtype?: unknown }, path);
    } else if (isPlainObject(value)) {
      this.writeDict(Object.entries(value), path);
    } else {
      this.fail(path, `is a ${value.constructor?.name ?? 'object'}, which has no place in a checkpoint.`);
    }
    this.open.delete(value);
  }

  private writeList(items: readonly TorchWritable[], path: string): void {
    this.pickle.emptyList();
    for (let start = 0; start < items.length; start += PICKLE_BATCH_SIZE) {
      const batch = items.slice(start, start + PICKLE_BATCH_SIZE);
      if (batch.length > 1) this.pickle.mark();
      batch.forEach((item, index) => this.write(item, `${path}[${start + index}]`));
      if (batch.length > 1) this.pickle.appends();
      else this.pickle.append();
    }
  }

  private writeTuple(items: readonly TorchWritable[], path: string): void {
    if (items.length === 0) {
      this.pickle.emptyTuple();
      return;
    }
    if (items.length > 3) this.pickle.mark();
    items.forEach((item, index) => this.write(item, `${path}[${index}]`));
    this.pickle.tuple(items.length);
  }

  /** collections.OrderedDict(), then its items by SETITEMS (SETITEM for a lone one), as Python pickles it. */
  private writeDict(items: ReadonlyArray<readonly [unknown, TorchWritable]>, path: string): void {
    const { pickle } = this;
    pickle.global('collections', 'OrderedDict').emptyTuple().reduce();
    for (let start = 0; start < items.length; start += PICKLE_BATCH_SIZE) {
      const batch = items.slice(start, start + PICKLE_BATCH_SIZE);
      if (batch.length > 1) pickle.mark();
      for (const [key, item] of batch) {
        if (typeof key !== 'string') this.fail(path, `has a ${typeof key} key; only string keys are written.`);
        pickle.unicode(key);
        this.write(item, path ? `${path}.${key}` : key);
      }
      if (batch.length > 1) pickle.setItems();
      else pickle.setItem();
    }
  }

  /**
   * torch._utils._rebuild_tensor_v2(persistent_load(('storage', torch.FloatStorage,
   * key, 'cpu', numel)), 0, size, stride, False, OrderedDict()), as torch.save writes a tensor.
   */
  private writeTensor(tensor: { shape?: unknown; data: ArrayBufferView; dtype?: unknown }, path: string): void {
    const { data, shape } = tensor;
    if (!(data instanceof Float32Array) || (tensor.dtype !== undefined && tensor.dtype !== 'float32')) {
      this.fail(path, `is a tensor of ${typeof tensor.dtype === 'string' ? tensor.dtype : data.constructor.name}; only float32 tensors (a Float32Array) are written.`);
    }
    const sizes = Array.isArray(shape) ? (shape as unknown[]) : undefined;
    if (!sizes || !sizes.every((size): size is number => Number.isSafeInteger(size) && (size as number) >= 0)) {
      return this.fail(path, 'has a shape that is not a list of whole sizes.');
    }
    const count = sizes.reduce((product, size) => product * size, 1);
    if (count !== data.length) this.fail(path, `has shape [${sizes.join(', ')}] (${count} values) but ${data.length} values.`);

    let key = this.storageKeys.get(data);
    if (key === undefined) {
      key = String(this.storages.length);
      this.storageKeys.set(data, key);
      this.storages.push([key, littleEndianBytes(data)]);
    }
    const { pickle } = this;
    pickle.global('torch._utils', '_rebuild_tensor_v2').mark();
    pickle.mark().sharedUnicode('storage').global('torch', 'FloatStorage').unicode(key).sharedUnicode('cpu').int(data.length).tuple(5);
    pickle.persistentId().int(0);
    this.writeInts(sizes);
    this.writeInts(contiguousStrides(sizes));
    pickle.bool(false).global('collections', 'OrderedDict').emptyTuple().reduce();
    pickle.tuple(6).reduce();
  }

  private writeInts(values: readonly number[]): void {
    if (values.length === 0) {
      this.pickle.emptyTuple();
      return;
    }
    if (values.length > 3) this.pickle.mark();
    for (const value of values) this.pickle.int(value);
    this.pickle.tuple(values.length);
  }
}

/**
 * The bytes of a `torch.save` file (zip format, as `_use_new_zipfile_serialization=True`
 * writes it): `<name>/data.pkl` (a protocol-2 pickle), `<name>/byteorder`
 * ('little'), the storages `<name>/data/0..N-1` (raw little-endian float32) and
 * `<name>/version` ('3\n'), stored uncompressed with each entry's data aligned to
 * 64 bytes. Dicts come out as `collections.OrderedDict` and tensors as
 * `torch._utils._rebuild_tensor_v2` of a `torch.FloatStorage`; tensors that share
 * one Float32Array share one storage. No float enters the pickle (a non-integer
 * number is refused), so `torch.load(path, weights_only=True)` loads it.
 */
export function writeTorchCheckpoint(value: TorchWritable, options: TorchWriteOptions = {}): Uint8Array {
  const label = options.label ?? 'checkpoint.pt';
  const root = options.archiveName ?? 'archive';
  // eslint-disable-next-line no-control-regex
  if (!/^[^/\\\x00-\x1f]+$/.test(root) || root === '.' || root === '..') {
    throw new CheckpointError(`${label}: the archive name '${root}' must be one folder name (no '/', '\\' or control characters, not '.' or '..').`);
  }
  const pickler = new CheckpointPickler(label);
  pickler.write(value, '');
  const entries: Array<[string, Uint8Array]> = [
    [`${root}/data.pkl`, pickler.pickle.finish()],
    [`${root}/byteorder`, new TextEncoder().encode('little')],
    ...pickler.storages.map(([key, bytes]): [string, Uint8Array] => [`${root}/data/${key}`, bytes]),
    [`${root}/version`, new TextEncoder().encode('3\n')],
  ];
  return writeStoredZip(entries, label, { alignment: TORCH_STORAGE_ALIGNMENT });
}
