/**
 * D4RL's HDF5 layout: one row per step at the top level, `observations [N, O]`, `actions [N, A]`,
 * `rewards [N]`, `terminals [N]` and `timeouts [N]`; `next_observations`, `infos/*` and
 * `metadata/*` are not read. An episode ends on the row whose terminal or timeout is set: a
 * terminal makes it terminated (a fall), a timeout alone truncated (the time limit). Rows after
 * the last end are a trailing episode the data cut off; it is kept, as truncated, and said.
 */
import { DemosError } from '../errors';
import type { DatasetEpisodes } from './dataset-episodes';
import { MAX_DATASET_EPISODES, MAX_DATASET_ROW_VALUES, MAX_DATASET_STEPS } from './dataset-limits';
import type { Hdf5File } from './hdf5-file';

export const D4RL_KEYS = ['observations', 'actions', 'rewards', 'terminals', 'timeouts'] as const;

/** True when the file's top level looks like D4RL's. */
export function isD4rlFile(file: Hdf5File): boolean {
  const top = file.keys('/');
  return top.includes('observations') || (top.includes('actions') && top.includes('rewards'));
}

/** A [N, width] table (a [N] vector is one value wide). */
function table(file: Hdf5File, key: string): { rows: number; width: number; data: Float32Array } {
  if (file.kind(key) !== 'dataset') {
    throw new DemosError(`${file.label} has no '${key}' dataset; a D4RL file holds ${D4RL_KEYS.join(', ')} at its top level (it has ${file.keys('/').join(', ')})`);
  }
  const shape = file.shape(key);
  if (shape.length < 1 || shape.length > 2) throw new DemosError(`${file.label}'s '${key}' has shape [${shape.join(', ')}]; D4RL stores it as [steps] or [steps, values]`);
  const [rows, width = 1] = shape;
  if (rows > MAX_DATASET_STEPS) throw new DemosError(`${file.label}'s '${key}' has ${rows} rows, over the ${MAX_DATASET_STEPS}-step limit`);
  if (width < 1 || width > MAX_DATASET_ROW_VALUES) throw new DemosError(`${file.label}'s '${key}' rows hold ${width} values; expected 1 to ${MAX_DATASET_ROW_VALUES}`);
  return { rows, width, data: file.numbers(key).data };
}

function vector(file: Hdf5File, key: string, rows: number): Float32Array {
  const read = table(file, key);
  if (read.width !== 1) throw new DemosError(`${file.label}'s '${key}' holds ${read.width} values per step; D4RL stores one`);
  if (read.rows !== rows) throw new DemosError(`${file.label}'s '${key}' has ${read.rows} rows but its observations have ${rows}`);
  return read.data;
}

export function readD4rl(file: Hdf5File): DatasetEpisodes {
  const observations = table(file, 'observations');
  const actions = table(file, 'actions');
  const rows = observations.rows;
  if (actions.rows !== rows) throw new DemosError(`${file.label}'s 'actions' has ${actions.rows} rows but its observations have ${rows}`);
  const rewards = vector(file, 'rewards', rows);
  const notes: string[] = [];
  const flags = (key: 'terminals' | 'timeouts'): Float32Array => {
    if (file.kind(key) === 'dataset') return vector(file, key, rows);
    notes.push(`it has no '${key}', so none ends that way`);
    return new Float32Array(rows);
  };
  const terminals = flags('terminals');
  const timeouts = flags('timeouts');
  const starts = [0];
  const terminated: number[] = [];
  for (let row = 0; row < rows; row++) {
    if (terminals[row] === 0 && timeouts[row] === 0) continue;
    // A row both terminal and timed out fell on the last step: it is still a fall.
    terminated.push(terminals[row] !== 0 ? 1 : 0);
    starts.push(row + 1);
    if (terminated.length > MAX_DATASET_EPISODES) throw new DemosError(`${file.label} holds more than ${MAX_DATASET_EPISODES} episodes`);
  }
  const trailing = rows - starts[starts.length - 1];
  if (trailing > 0) {
    terminated.push(0);
    starts.push(rows);
    notes.push(`its last ${trailing} steps end with neither a terminal nor a timeout; kept as a truncated episode`);
  }
  if (rows === 0) throw new DemosError(`${file.label} holds no steps`);
  return {
    layout: 'd4rl', obsDim: observations.width, actionDim: actions.width,
    obs: observations.data, actions: actions.data, rewards,
    episodeStarts: Int32Array.from(starts), terminated: Uint8Array.from(terminated),
    // D4RL's locomotion sets are measured by return; none marks success.
    success: new Uint8Array(terminated.length), notes,
  };
}
