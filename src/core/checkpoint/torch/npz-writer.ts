import { CheckpointError } from '../../errors';
import { writeNpy, type NpyArray } from './npy-writer';
import { writeStoredZip } from './zip-writer';

export interface NpzWriteOptions {
  /** File name for error sentences. */
  readonly label?: string;
}

/**
 * The bytes of an `.npz` as numpy's `np.savez` writes one: a zip of stored
 * (uncompressed) `<key>.npy` entries, in the record's order, each a `.npy` 1.0
 * file of a C-order little-endian `<f4` or `<f8` array. `np.load` returns the
 * arrays by key; nothing in the file is a pickle.
 */
export function writeNpz(arrays: Readonly<Record<string, NpyArray>>, options: NpzWriteOptions = {}): Uint8Array {
  const label = options.label ?? 'arrays.npz';
  const entries = Object.entries(arrays).map(([key, array]): [string, Uint8Array] => {
    if (key.length === 0 || key.includes('\0')) throw new CheckpointError(`${label}: an array key must be a non-empty name without NUL characters.`);
    return [`${key}.npy`, writeNpy(array, `${label} (${key}.npy)`)];
  });
  return writeStoredZip(entries, label);
}
