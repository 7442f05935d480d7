import { CheckpointError } from '../../errors';
import { describeType, TorchGlobal, TorchStorage, type PickleValue } from './pickle-values';
import { gatherStrided, type ElementBudget } from './strided-gather';
import { ForeignTensor, type ForeignDtype } from './tensor-dtypes';

/** torch's legacy storage classes, which name a storage's element type in the pickle. */
export const STORAGE_DTYPES: Readonly<Record<string, ForeignDtype>> = {
  FloatStorage: 'float32', DoubleStorage: 'float64', HalfStorage: 'float16', BFloat16Storage: 'bfloat16',
  LongStorage: 'int64', IntStorage: 'int32', ShortStorage: 'int16', CharStorage: 'int8', ByteStorage: 'uint8', BoolStorage: 'bool',
};

/** `torch.<name>` dtypes, as optimizer states and tensor metadata may name them. */
const DTYPE_NAMES = new Set([
  'float32', 'float', 'float64', 'double', 'float16', 'half', 'bfloat16',
  'int64', 'long', 'int32', 'int', 'int16', 'short', 'int8', 'uint8', 'bool',
]);

/**
 * The whole allow-list: what a state dict needs, as `torch.load(weights_only=True)`
 * allows. Every other global is refused when the pickle names it, before anything
 * could call it; nothing named here runs code either, each is a tag we act on.
 */
export function resolveGlobal(module: string, name: string, label: string): TorchGlobal {
  const qualified = `${module}.${name}`;
  if (qualified === 'collections.OrderedDict') return new TorchGlobal(module, name, 'ordered-dict');
  if (qualified === 'torch._utils._rebuild_tensor_v2') return new TorchGlobal(module, name, 'rebuild-tensor');
  if (qualified === 'torch._utils._rebuild_parameter' || qualified === 'torch._utils._rebuild_parameter_with_state') {
    return new TorchGlobal(module, name, 'rebuild-parameter');
  }
  if (qualified === 'torch.Size') return new TorchGlobal(module, name, 'size');
  if (module === 'torch' && Object.hasOwn(STORAGE_DTYPES, name)) return new TorchGlobal(module, name, 'storage-type');
  if (module === 'torch' && DTYPE_NAMES.has(name)) return new TorchGlobal(module, name, 'dtype');
  throw new CheckpointError(`${label}: the pickle names the global '${qualified}', which a state dict never needs; refusing to load it.`);
}

/** What a tensor rebuild needs besides its arguments. */
export interface RebuildContext {
  readonly label: string;
  readonly littleEndian: boolean;
  readonly budget: ElementBudget;
}

function intList(value: PickleValue, label: string, what: string): number[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'number')) {
    throw new CheckpointError(`${label}: a tensor's ${what} is a ${describeType(value)}, not a tuple of integers.`);
  }
  return value as number[];
}

/** REDUCE (or NEWOBJ) of an allowed global on its arguments. */
export function callGlobal(callable: PickleValue, args: PickleValue, context: RebuildContext): PickleValue {
  const { label } = context;
  if (!(callable instanceof TorchGlobal)) {
    throw new CheckpointError(`${label}: the pickle calls a ${describeType(callable)}, which is not a callable global.`);
  }
  if (!Array.isArray(args)) {
    throw new CheckpointError(`${label}: the pickle calls '${callable.qualifiedName}' with a ${describeType(args)} instead of an argument tuple.`);
  }
  switch (callable.kind) {
    case 'ordered-dict':
      return orderedDict(args, label);
    case 'rebuild-tensor':
      return rebuildTensor(args, context);
    case 'rebuild-parameter':
      // A Parameter is its data tensor; requires_grad and hooks mean nothing here.
      if (!(args[0] instanceof ForeignTensor)) {
        throw new CheckpointError(`${label}: '${callable.qualifiedName}' is given a ${describeType(args[0])} instead of a tensor.`);
      }
      return args[0];
    case 'size':
      return Object.freeze(intList(args[0] ?? [], label, 'size').slice()) as number[];
    default:
      throw new CheckpointError(`${label}: the pickle calls '${callable.qualifiedName}', which is a type tag, not a function a state dict calls.`);
  }
}

/** OrderedDict() or OrderedDict([(key, value), ...]). */
function orderedDict(args: PickleValue[], label: string): PickleValue {
  const dict = new Map<PickleValue, PickleValue>();
  const pairs = args[0];
  if (pairs === undefined) return dict;
  if (!Array.isArray(pairs)) throw new CheckpointError(`${label}: OrderedDict is given a ${describeType(pairs)} instead of a list of pairs.`);
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2) throw new CheckpointError(`${label}: OrderedDict is given an item that is not a (key, value) pair.`);
    dict.set(pair[0], pair[1]);
  }
  return dict;
}

/** _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata]). */
function rebuildTensor(args: PickleValue[], context: RebuildContext): ForeignTensor {
  const { label } = context;
  const [storage, offset] = args;
  if (!(storage instanceof TorchStorage)) {
    throw new CheckpointError(`${label}: a tensor is rebuilt from a ${describeType(storage)} instead of a storage.`);
  }
  if (typeof offset !== 'number') throw new CheckpointError(`${label}: a tensor's storage offset is a ${describeType(offset)}, not an integer.`);
  const shape = intList(args[2], label, 'size');
  const strides = intList(args[3], label, 'stride');
  return gatherStrided(storage.bytes, storage.dtype, { offset, shape, strides }, context.littleEndian, context.budget, label, `storage '${storage.key}'`);
}
