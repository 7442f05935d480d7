import { CheckpointError } from '../../errors';
import type { MinMaxStats } from '../../policy/normalizer';
import { readNpz } from '../torch/npz-reader';
import { toFloat32 } from '../torch/tensor-dtypes';

/** A file's name and bytes. */
export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

/** obs and action min/max from `normalization.npz`, each a finite vector with min ≤ max. */
export function readNormalization(file: NamedBytes | undefined, label: string): { obs: MinMaxStats; action: MinMaxStats } {
  if (!file) throw new CheckpointError(`${label} needs its normalization.npz (obs_min, obs_max, action_min, action_max): put it beside the checkpoint or give normalization=FILE.npz`);
  const arrays = readNpz(file.bytes, { label: file.name });
  const vector = (key: string): number[] => {
    const tensor = arrays.get(key);
    if (!tensor) throw new CheckpointError(`${file.name} has no '${key}' (a normalization.npz holds obs_min, obs_max, action_min, action_max)`);
    const values = [...toFloat32(tensor)];
    if (tensor.shape.length !== 1 || values.length === 0 || !values.every(Number.isFinite)) {
      throw new CheckpointError(`${file.name}: '${key}' must be a non-empty vector of finite numbers, got shape [${tensor.shape.join(', ')}]`);
    }
    return values;
  };
  const pair = (prefix: string): MinMaxStats => {
    const min = vector(`${prefix}_min`);
    const max = vector(`${prefix}_max`);
    if (min.length !== max.length) throw new CheckpointError(`${file.name}: ${prefix}_min has ${min.length} values but ${prefix}_max has ${max.length}`);
    return { min, max };
  };
  return { obs: pair('obs'), action: pair('action') };
}

/** [rows, cols] row-major → [cols, rows]: torch's Linear weight [out, in] and our kernel [in, out], both ways. */
export function transposed(values: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let row = 0; row < rows; row++) for (let col = 0; col < cols; col++) out[col * rows + row] = values[row * cols + col];
  return out;
}
