/**
 * robomimic's HDF5 layout: `data/demo_N/{obs/<key>, actions, rewards, dones}`, one group per
 * demonstration, with filter keys under `mask/` (`mask/train`: the names of the demos in that
 * split). Demos are taken in the order of their number (demo_2 before demo_10), as robomimic's
 * own loader sorts them. The observation is the named `obs_keys` concatenated in the given order
 * (each key's trailing axes flattened). A demo whose last `dones` is 1 ended at the task's
 * success (robomimic marks it there): it is terminated and a success; otherwise it was cut off,
 * truncated. `next_obs`, `states` and attributes are not read.
 */
import { DemosError } from '../errors';
import type { DatasetEpisodes } from './dataset-episodes';
import { MAX_DATASET_EPISODES, MAX_DATASET_ROW_VALUES, MAX_DATASET_STEPS } from './dataset-limits';
import type { Hdf5File } from './hdf5-file';

export interface RobomimicOptions {
  /** The observation keys under each demo's `obs/`, concatenated in this order. */
  obsKeys?: readonly string[];
  /** A filter key under `mask/` (`train`, `valid`, ...): only its demos are read. */
  filter?: string;
}

const DEMO_NAME = /^demo_(\d+)$/;

export function isRobomimicFile(file: Hdf5File): boolean {
  return file.kind('data') === 'group' && file.keys('data').some((name) => DEMO_NAME.test(name));
}

/** The demos under data/, by number; with a filter, those its mask names. */
function demoNames(file: Hdf5File, filter: string | undefined): string[] {
  const names = file.keys('data').filter((name) => DEMO_NAME.test(name) && file.kind(`data/${name}`) === 'group');
  if (names.length > MAX_DATASET_EPISODES) throw new DemosError(`${file.label} holds more than ${MAX_DATASET_EPISODES} demos`);
  const byNumber = (name: string) => Number(DEMO_NAME.exec(name)![1]);
  names.sort((a, b) => byNumber(a) - byNumber(b));
  if (filter === undefined) return names;
  const filters = file.kind('mask') === 'group' ? file.keys('mask') : [];
  if (!filters.includes(filter)) {
    throw new DemosError(filters.length > 0
      ? `${file.label} has no filter '${filter}' under mask/; its filters are ${filters.join(', ')}`
      : `${file.label} has no mask/ group, so filter=${filter} picks nothing; leave filter= out to read every demo`);
  }
  const chosen = new Set(file.strings(`mask/${filter}`));
  const stray = [...chosen].find((name) => !names.includes(name));
  if (stray !== undefined) throw new DemosError(`${file.label}'s mask/${filter} names ${stray}, which data/ does not hold`);
  return names.filter((name) => chosen.has(name));
}

/** "object (10), robot0_eef_pos (3)": the obs keys of a demo with their widths. */
function keyList(file: Hdf5File, demo: string): string {
  return file.keys(`data/${demo}/obs`).map((key) => {
    const shape = file.kind(`data/${demo}/obs/${key}`) === 'dataset' ? file.shape(`data/${demo}/obs/${key}`) : [];
    return `${key} (${shape.slice(1).reduce((product, size) => product * size, 1)})`;
  }).join(', ');
}

/** A [T, ...] array of one demo, as rows of `width` values. */
function rowsOf(file: Hdf5File, path: string, what: string): { rows: number; width: number; data: Float32Array } {
  if (file.kind(path) !== 'dataset') throw new DemosError(`${file.label} has no '${path}' (${what})`);
  const shape = file.shape(path);
  if (shape.length < 1) throw new DemosError(`${file.label}'s '${path}' is a scalar; robomimic stores one row per step`);
  const [rows, ...rest] = shape;
  const width = rest.reduce((product, size) => product * size, 1);
  if (width < 1 || width > MAX_DATASET_ROW_VALUES) throw new DemosError(`${file.label}'s '${path}' rows hold ${width} values; expected 1 to ${MAX_DATASET_ROW_VALUES}`);
  return { rows, width, data: file.numbers(path).data };
}

export function readRobomimic(file: Hdf5File, options: RobomimicOptions = {}): DatasetEpisodes {
  const demos = demoNames(file, options.filter);
  if (demos.length === 0) throw new DemosError(`${file.label}'s ${options.filter ? `mask/${options.filter}` : 'data/'} holds no demos`);
  const obsKeys = options.obsKeys ?? [];
  if (obsKeys.length === 0) {
    throw new DemosError(`${file.label} is a robomimic file: name the keys that make the task's observation, in its order, with obs_keys=KEY,KEY (its demos hold ${keyList(file, demos[0])})`);
  }
  const obsRows: Float32Array[] = [];
  const actionRows: Float32Array[] = [];
  const rewardRows: Float32Array[] = [];
  const starts = [0];
  const terminated: number[] = [];
  let obsDim: number | undefined;
  let actionDim: number | undefined;
  for (const demo of demos) {
    const base = `data/${demo}`;
    const actions = rowsOf(file, `${base}/actions`, 'every robomimic demo holds actions, rewards and dones');
    const steps = actions.rows;
    if (starts[starts.length - 1] + steps > MAX_DATASET_STEPS) throw new DemosError(`${file.label} holds more than ${MAX_DATASET_STEPS} steps`);
    if (actionDim !== undefined && actions.width !== actionDim) throw new DemosError(`${file.label}'s ${demo} has actions of ${actions.width} values but the demos before it have ${actionDim}`);
    actionDim = actions.width;
    const perStep = (name: 'rewards' | 'dones') => {
      const read = rowsOf(file, `${base}/${name}`, 'every robomimic demo holds actions, rewards and dones');
      if (read.width !== 1 || read.rows !== steps) throw new DemosError(`${file.label}'s '${base}/${name}' has shape [${file.shape(`${base}/${name}`).join(', ')}]; expected [${steps}], one per action`);
      return read.data;
    };
    const rewards = perStep('rewards');
    const dones = perStep('dones');
    const parts = obsKeys.map((key) => {
      const path = `${base}/obs/${key}`;
      if (file.kind(path) !== 'dataset') throw new DemosError(`${file.label}'s ${demo}/obs has no '${key}'; it holds ${keyList(file, demo)}`);
      const read = rowsOf(file, path, 'an observation key');
      if (read.rows !== steps) throw new DemosError(`${file.label}'s '${path}' has ${read.rows} rows but ${demo} has ${steps} actions`);
      return read;
    });
    const width = parts.reduce((sum, part) => sum + part.width, 0);
    if (obsDim !== undefined && width !== obsDim) throw new DemosError(`${file.label}'s ${demo} gives observations of ${width} values from obs_keys=${obsKeys.join(',')} but the demos before it give ${obsDim}`);
    obsDim = width;
    const obs = new Float32Array(steps * width);
    for (let step = 0; step < steps; step++) {
      let column = step * width;
      for (const part of parts) {
        obs.set(part.data.subarray(step * part.width, (step + 1) * part.width), column);
        column += part.width;
      }
    }
    obsRows.push(obs);
    actionRows.push(actions.data);
    rewardRows.push(rewards);
    terminated.push(steps > 0 && dones[steps - 1] !== 0 ? 1 : 0);
    starts.push(starts[starts.length - 1] + steps);
  }
  const join = (arrays: Float32Array[]) => {
    const out = new Float32Array(arrays.reduce((sum, array) => sum + array.length, 0));
    let offset = 0;
    for (const array of arrays) {
      out.set(array, offset);
      offset += array.length;
    }
    return out;
  };
  const ends = Uint8Array.from(terminated);
  return {
    layout: 'robomimic', obsDim: obsDim!, actionDim: actionDim!,
    obs: join(obsRows), actions: join(actionRows), rewards: join(rewardRows),
    episodeStarts: Int32Array.from(starts), terminated: ends, success: ends.slice(),
    obsSource: `obs_keys=${obsKeys.join(',')}`,
    notes: options.filter ? [`the ${demos.length === 1 ? 'one demo' : `${demos.length} demos`} of mask/${options.filter}`] : [],
  };
}
