import { CheckpointError } from '../../errors';
import { describeType, TorchGlobal, TorchStorage, type PickleValue } from './pickle-values';
import { ITEM_SIZE } from './tensor-dtypes';
import { STORAGE_DTYPES, callGlobal, resolveGlobal, type RebuildContext } from './torch-globals';
import { unpickle } from './unpickler';
import { DEFAULT_MAX_UNZIPPED_BYTES, readZipEntries } from './zip-archive';

export interface TorchReadOptions {
  /** File name for error sentences. */
  readonly label?: string;
  /** Ceiling on unpacked bytes, and on the bytes of float32 tensors made from them. */
  readonly maxBytes?: number;
}

/** The archive's one `<name>/data.pkl`, whose folder holds `data/<key>` storages and `byteorder`. */
function findRoot(entries: Map<string, Uint8Array>, label: string): string {
  const roots = [...entries.keys()].filter((name) => /^[^/]+\/data\.pkl$/.test(name)).map((name) => name.slice(0, -'/data.pkl'.length));
  if (roots.length !== 1) {
    throw new CheckpointError(
      roots.length === 0
        ? `${label}: the zip holds no '<name>/data.pkl', so it is not a torch.save checkpoint.`
        : `${label}: the zip holds ${roots.length} '<name>/data.pkl' entries (${roots.join(', ')}); a torch.save checkpoint has one.`,
    );
  }
  return roots[0];
}

function isLittleEndian(entries: Map<string, Uint8Array>, root: string, label: string): boolean {
  const marker = entries.get(`${root}/byteorder`);
  if (!marker) return true; // Files before torch 2.1 have no marker and are little-endian.
  const order = new TextDecoder().decode(marker).trim();
  if (order !== 'little' && order !== 'big') {
    throw new CheckpointError(`${label}: its byteorder entry says '${order.slice(0, 20)}'; expected 'little' or 'big'.`);
  }
  return order === 'little';
}

/**
 * Reads a `torch.save` file (zip: `<name>/data.pkl`, `<name>/data/<key>`) into
 * plain values with tensors as ForeignTensor. The pickle goes through our
 * restricted unpickler: only a state dict's globals are accepted and nothing in
 * the file is run. Storage sizes are checked against the archive, and every
 * tensor's view against its storage.
 */
export function readTorchCheckpoint(bytes: Uint8Array, options: TorchReadOptions = {}): PickleValue {
  const label = options.label ?? 'checkpoint.pt';
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_UNZIPPED_BYTES;
  const entries = readZipEntries(bytes, label, { maxBytes });
  const root = findRoot(entries, label);
  const context: RebuildContext = { label, littleEndian: isLittleEndian(entries, root, label), budget: { remaining: Math.floor(maxBytes / 4) } };
  const storages = new Map<string, TorchStorage>();

  const persistentLoad = (pid: PickleValue): PickleValue => {
    // torch's pid: ('storage', <storage class>, key, location, element count).
    if (!Array.isArray(pid) || pid.length < 5 || pid[0] !== 'storage') {
      throw new CheckpointError(`${label}: the pickle refers to a persistent ${describeType(pid)} that is not a torch storage.`);
    }
    const [, storageType, key, , count] = pid;
    if (!(storageType instanceof TorchGlobal) || storageType.kind !== 'storage-type') {
      throw new CheckpointError(`${label}: a storage's type is a ${describeType(storageType)}, not one of torch's storage classes.`);
    }
    if (typeof key !== 'string' || typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
      throw new CheckpointError(`${label}: a storage reference has a malformed key or element count.`);
    }
    const dtype = STORAGE_DTYPES[storageType.name];
    const cacheKey = `${key}:${dtype}`;
    const cached = storages.get(cacheKey);
    if (cached) return cached;
    const entryName = `${root}/data/${key}`;
    const entry = entries.get(entryName);
    if (!entry) {
      throw new CheckpointError(`${label}: the pickle refers to storage '${key}', but the archive holds no '${entryName}'; the file is truncated or corrupt.`);
    }
    const byteLength = count * ITEM_SIZE[dtype];
    if (byteLength > entry.length) {
      throw new CheckpointError(
        `${label}: storage '${key}' declares ${count} ${dtype} values (${byteLength} bytes) but the archive holds ${entry.length} bytes for it; the file is truncated or corrupt.`,
      );
    }
    const storage = new TorchStorage(key, dtype, entry.subarray(0, byteLength));
    storages.set(cacheKey, storage);
    return storage;
  };

  return unpickle(entries.get(`${root}/data.pkl`) as Uint8Array, {
    label,
    findGlobal: (module, name) => resolveGlobal(module, name, label),
    call: (callable, args) => callGlobal(callable, args, context),
    persistentLoad,
  });
}
