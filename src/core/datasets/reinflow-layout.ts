/**
 * ReinFlow's and DPPO's `train.npz` (their `script/dataset/get_d4rl_dataset.py`): `states [N, O]`
 * and `actions [N, A]` scaled to [-1, 1], `rewards [N]`, `terminals [N]`, and `traj_lengths [E]`
 * cutting the rows into episodes. The scaling is undone with the `normalization.npz` written
 * beside it, as their env wrappers do: a = (a_n + 1)/2·(max − min) + min and
 * o = (o_n/2 + 0.5)·(max − min + 1e-6) + min. An episode whose last row is terminal is
 * terminated; any other was truncated (their time limit).
 */
import { NORMALIZATION_KEYS, normalizationStats } from '../checkpoint/peers/peer-normalization';
import { readNpz } from '../checkpoint/torch/npz-reader';
import { toFloat32, type ForeignTensor } from '../checkpoint/torch/tensor-dtypes';
import { DemosError, isFlowtuneError } from '../errors';
import type { DatasetEpisodes } from './dataset-episodes';
import { MAX_DATASET_EPISODES, MAX_DATASET_FILE_BYTES, MAX_DATASET_STEPS } from './dataset-limits';

export interface NamedFile {
  name: string;
  bytes: Uint8Array;
}

/** The keys of a train.npz. */
export const TRAIN_NPZ_KEYS = ['states', 'actions', 'rewards', 'terminals', 'traj_lengths'] as const;

/** A reader's refusal (CheckpointError from the npz reader) as a DemosError with the same sentence. */
function asDemosError(error: unknown): unknown {
  return isFlowtuneError(error) && error.name !== 'DemosError' ? new DemosError(error.message.replace(/\.$/, '')) : error;
}

/** The arrays of an `.npz`, each failure one DemosError naming the file. */
export function readNpzArrays(file: NamedFile): Map<string, ForeignTensor> {
  try {
    return readNpz(file.bytes, { label: file.name, maxBytes: MAX_DATASET_FILE_BYTES });
  } catch (error) {
    throw asDemosError(error);
  }
}

export function isTrainNpz(arrays: ReadonlyMap<string, unknown>): boolean {
  return arrays.has('states') && arrays.has('actions');
}

export function isNormalizationNpz(arrays: ReadonlyMap<string, unknown>): boolean {
  return NORMALIZATION_KEYS.every((key) => arrays.has(key));
}

function rowsOf(label: string, arrays: Map<string, ForeignTensor>, key: string, width?: number): { rows: number; width: number; data: Float32Array } {
  const tensor = arrays.get(key);
  if (!tensor) throw new DemosError(`${label} has no '${key}'; a ReinFlow/DPPO train.npz holds ${TRAIN_NPZ_KEYS.join(', ')}`);
  const [rows = 1, columns = 1] = tensor.shape;
  if (tensor.shape.length > 2 || (width !== undefined && columns !== width)) {
    throw new DemosError(`${label}'s '${key}' has shape [${tensor.shape.join(', ')}]; expected ${width === 1 ? '[steps]' : '[steps, values]'}`);
  }
  if (rows > MAX_DATASET_STEPS) throw new DemosError(`${label}'s '${key}' has ${rows} rows, over the ${MAX_DATASET_STEPS}-step limit`);
  return { rows, width: columns, data: toFloat32(tensor) };
}

/** obs and action min/max of a normalization.npz (the checkpoints' reader of it, with the dataset's error). */
function readStats(file: NamedFile): { obs: { min: number[]; max: number[] }; action: { min: number[]; max: number[] } } {
  return normalizationStats(readNpzArrays(file), file.name, (message) => new DemosError(message));
}

/** Reads the train.npz arrays with the normalization.npz that undoes their scaling. */
export function readReinflowTrain(train: NamedFile, arrays: Map<string, ForeignTensor>, normalization: NamedFile | undefined): DatasetEpisodes {
  const label = train.name;
  if (!normalization) {
    throw new DemosError(`${label} holds states and actions scaled to [-1, 1]: give the normalization.npz written beside it (normalization=FILE.npz, or drop both files together)`);
  }
  const states = rowsOf(label, arrays, 'states');
  const actions = rowsOf(label, arrays, 'actions');
  const steps = states.rows;
  if (actions.rows !== steps) throw new DemosError(`${label}'s 'actions' has ${actions.rows} rows but its 'states' has ${steps}`);
  const notes: string[] = [];
  const perStep = (key: 'rewards' | 'terminals'): Float32Array => {
    if (!arrays.has(key)) {
      notes.push(key === 'rewards' ? "it has no 'rewards', so they are stored as 0" : "it has no 'terminals', so every episode counts as truncated");
      return new Float32Array(steps);
    }
    const read = rowsOf(label, arrays, key, 1);
    if (read.rows !== steps) throw new DemosError(`${label}'s '${key}' has ${read.rows} rows but its 'states' has ${steps}`);
    return read.data;
  };
  const rewards = perStep('rewards');
  const terminals = perStep('terminals');
  const lengthsTensor = arrays.get('traj_lengths');
  if (!lengthsTensor || lengthsTensor.shape.length !== 1) throw new DemosError(`${label} needs 'traj_lengths', one length per episode, to cut its rows into episodes`);
  if (lengthsTensor.shape[0] > MAX_DATASET_EPISODES) throw new DemosError(`${label} holds more than ${MAX_DATASET_EPISODES} episodes`);
  const lengths = Array.from(lengthsTensor.data, Number);
  const starts = [0];
  const terminated: number[] = [];
  for (const [episode, length] of lengths.entries()) {
    if (!Number.isSafeInteger(length) || length < 1) throw new DemosError(`${label}'s traj_lengths[${episode}] is ${length}; every episode has at least one step`);
    const first = starts[starts.length - 1];
    const end = first + length;
    if (end > steps) break;
    const inner = terminals.subarray(first, end - 1).findIndex((flag) => flag !== 0);
    if (inner >= 0) throw new DemosError(`${label}'s terminals mark row ${first + inner}, inside episode ${episode} (rows ${first} to ${end - 1}), not at its end`);
    terminated.push(terminals[end - 1] !== 0 ? 1 : 0);
    starts.push(end);
  }
  const total = lengths.reduce((sum, length) => sum + length, 0);
  if (total !== steps) throw new DemosError(`${label}'s traj_lengths add up to ${total} steps but it holds ${steps} rows`);
  const stats = readStats(normalization);
  if (stats.obs.min.length !== states.width) {
    throw new DemosError(`${normalization.name}'s obs_min holds ${stats.obs.min.length} values but ${label}'s states have ${states.width}: it is the normalization of another dataset`);
  }
  if (stats.action.min.length !== actions.width) {
    throw new DemosError(`${normalization.name}'s action_min holds ${stats.action.min.length} values but ${label}'s actions have ${actions.width}: it is the normalization of another dataset`);
  }
  const unscale = (scaled: Float32Array, width: number, min: readonly number[], max: readonly number[], obs: boolean) => scaled.map((value, index) => {
    const feature = index % width;
    const range = max[feature] - min[feature];
    return obs ? (value / 2 + 0.5) * (range + 1e-6) + min[feature] : (value + 1) / 2 * range + min[feature];
  });
  return {
    layout: 'reinflow', obsDim: states.width, actionDim: actions.width,
    obs: unscale(states.data, states.width, stats.obs.min, stats.obs.max, true),
    actions: unscale(actions.data, actions.width, stats.action.min, stats.action.max, false),
    rewards, episodeStarts: Int32Array.from(starts), terminated: Uint8Array.from(terminated),
    success: new Uint8Array(terminated.length), notes,
  };
}
