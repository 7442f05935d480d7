import { ForeignTensor } from './tensor-dtypes';

/** A Python dict or OrderedDict, in insertion order; str and int keys compare by value. */
export type PickleDict = Map<PickleValue, PickleValue>;

/**
 * What a restricted unpickle yields: Python's plain values, with lists and
 * tuples as arrays (tuples frozen), dicts as Maps, ints as numbers (bigint past
 * 2^53), bytes as Uint8Array, tensors as ForeignTensor, and any allowed global
 * left standing (a dtype such as `torch.float32`) as a TorchGlobal.
 */
export type PickleValue =
  | null | boolean | number | bigint | string | Uint8Array
  | PickleValue[] | PickleDict | ForeignTensor | TorchGlobal | TorchStorage;

/** The kinds of global a state dict may name (the whole allow-list is in torch-globals.ts). */
export type TorchGlobalKind = 'ordered-dict' | 'rebuild-tensor' | 'rebuild-parameter' | 'storage-type' | 'dtype' | 'size';

/** An allowed global, as a value: never a function from the file, only a tag we act on. */
export class TorchGlobal {
  constructor(readonly module: string, readonly name: string, readonly kind: TorchGlobalKind) {}

  get qualifiedName(): string {
    return `${this.module}.${this.name}`;
  }
}

/** A storage the pickle refers to by key: its bytes from the archive, checked against its declared size. */
export class TorchStorage {
  constructor(readonly key: string, readonly dtype: ForeignTensor['dtype'], readonly bytes: Uint8Array) {}
}

export function isPickleDict(value: PickleValue | undefined): value is PickleDict {
  return value instanceof Map;
}

/** The tensors of a state dict, by name (other entries, such as extra state, are left out). */
export function stateDictTensors(dict: PickleDict): Map<string, ForeignTensor> {
  const tensors = new Map<string, ForeignTensor>();
  for (const [key, value] of dict) {
    if (typeof key === 'string' && value instanceof ForeignTensor) tensors.set(key, value);
  }
  return tensors;
}

/** A short name for a value's type, for error sentences. */
export function describeType(value: PickleValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'None';
  if (Array.isArray(value)) return Object.isFrozen(value) ? 'tuple' : 'list';
  if (value instanceof Map) return 'dict';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof ForeignTensor) return 'tensor';
  if (value instanceof TorchGlobal) return `global '${value.qualifiedName}'`;
  if (value instanceof TorchStorage) return 'storage';
  return typeof value === 'string' ? 'str' : typeof value === 'bigint' ? 'int' : typeof value === 'number' ? 'number' : 'bool';
}
