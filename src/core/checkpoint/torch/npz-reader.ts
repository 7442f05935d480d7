import { CheckpointError } from '../../errors';
import { readNpy } from './npy-reader';
import type { ForeignTensor } from './tensor-dtypes';
import { DEFAULT_MAX_UNZIPPED_BYTES, readZipEntries } from './zip-archive';

export interface NpzReadOptions {
  /** File name for error sentences. */
  readonly label?: string;
  /** Ceiling on unpacked bytes (deflated `savez_compressed` files included). */
  readonly maxBytes?: number;
}

/**
 * Reads an `.npz` (numpy's savez or savez_compressed: a zip of `<key>.npy`)
 * into arrays by key, in the archive's order. Object arrays are refused, so no
 * pickle inside is ever read.
 */
export function readNpz(bytes: Uint8Array, options: NpzReadOptions = {}): Map<string, ForeignTensor> {
  const label = options.label ?? 'arrays.npz';
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_UNZIPPED_BYTES;
  const entries = readZipEntries(bytes, label, { maxBytes });
  const budget = { remaining: Math.floor(maxBytes / 4) };
  const arrays = new Map<string, ForeignTensor>();
  for (const [name, data] of entries) {
    if (!name.endsWith('.npy')) {
      throw new CheckpointError(`${label}: holds '${name}', which is not a .npy array; an .npz holds only '<key>.npy' entries.`);
    }
    arrays.set(name.slice(0, -4), readNpy(data, `${label} (${name})`, budget));
  }
  return arrays;
}
