import { CheckpointError } from '../../errors';
import type { MinMaxStats } from '../../policy/normalizer';
import { readNpz } from '../torch/npz-reader';
import { toFloat32, type ForeignTensor } from '../torch/tensor-dtypes';

/** A file's name and bytes. */
export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

/** The four vectors of the peers' `normalization.npz`, as their env wrappers and dataset scripts write them. */
export const NORMALIZATION_KEYS = ['obs_min', 'obs_max', 'action_min', 'action_max'] as const;

/**
 * obs and action min/max from a `normalization.npz`'s arrays, each a finite vector with as many mins as maxes. `fail`
 * makes the host's error (a checkpoint's, a dataset's) from one sentence.
 */
export function normalizationStats(arrays: ReadonlyMap<string, ForeignTensor>, name: string, fail: (message: string) => Error): { obs: MinMaxStats; action: MinMaxStats } {
  const vector = (key: (typeof NORMALIZATION_KEYS)[number]): number[] => {
    const tensor = arrays.get(key);
    if (!tensor) throw fail(`${name} has no '${key}' (a normalization.npz holds ${NORMALIZATION_KEYS.join(', ')})`);
    const values = [...toFloat32(tensor)];
    if (tensor.shape.length !== 1 || values.length === 0 || !values.every(Number.isFinite)) {
      throw fail(`${name}: '${key}' must be a non-empty vector of finite numbers, got shape [${tensor.shape.join(', ')}]`);
    }
    return values;
  };
  const pair = (prefix: 'obs' | 'action'): MinMaxStats => {
    const min = vector(`${prefix}_min`);
    const max = vector(`${prefix}_max`);
    if (min.length !== max.length) throw fail(`${name}: ${prefix}_min has ${min.length} values but ${prefix}_max has ${max.length}`);
    return { min, max };
  };
  return { obs: pair('obs'), action: pair('action') };
}

/** A checkpoint's `normalization.npz`, which must be given. */
export function readNormalization(file: NamedBytes | undefined, label: string): { obs: MinMaxStats; action: MinMaxStats } {
  if (!file) throw new CheckpointError(`${label} needs its normalization.npz (${NORMALIZATION_KEYS.join(', ')}): put it beside the checkpoint or give normalization=FILE.npz`);
  return normalizationStats(readNpz(file.bytes, { label: file.name }), file.name, (message) => new CheckpointError(message));
}

/** [rows, cols] row-major → [cols, rows]: torch's Linear weight [out, in] and our kernel [in, out], both ways. */
export function transposed(values: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let row = 0; row < rows; row++) for (let col = 0; col < cols; col++) out[col * rows + row] = values[row * cols + col];
  return out;
}
