/**
 * Another project's dataset as native demonstrations (DESIGN.md §18 "Datasets"): D4RL or
 * robomimic HDF5, or ReinFlow's/DPPO's train.npz with its normalization.npz. The layout is told
 * by the files' bytes and the keys inside, not their names; the command line and the studio's
 * drop both come here. Every refusal is one DemosError sentence naming the file.
 */
import type { DemoMetadata } from '../envs/demo-format';
import type { Demonstrations } from '../envs/expert-rollout';
import type { TaskName } from '../envs/task-types';
import { DemosError } from '../errors';
import { datasetDemos } from './dataset-demos';
import { endCounts, LAYOUT_NAMES, type DatasetEpisodes, type DatasetLayout } from './dataset-episodes';
import { MAX_DATASET_FILE_BYTES } from './dataset-limits';
import { isD4rlFile, readD4rl } from './d4rl-layout';
import { datasetFileKind } from './file-kind';
import { Hdf5File } from './hdf5-file';
import { isNormalizationNpz, isTrainNpz, readNpzArrays, readReinflowTrain, type NamedFile } from './reinflow-layout';
import { isRobomimicFile, readRobomimic } from './robomimic-layout';

export type { NamedFile } from './reinflow-layout';

export interface DatasetImportRequest {
  /** The dataset, and the normalization.npz of a train.npz (in any order). */
  files: readonly NamedFile[];
  task: TaskName;
  /** robomimic: the obs keys to concatenate, in order. */
  obsKeys?: readonly string[];
  /** robomimic: a filter key under mask/ (train, valid, ...). */
  filter?: string;
}

export interface ImportedDataset {
  demos: Demonstrations;
  metadata: DemoMetadata;
  layout: DatasetLayout;
  /** The dataset file's name. */
  source: string;
  terminated: number;
  truncated: number;
  /** One line: what was read ("x.hdf5 (D4RL): 3 episodes, 1449 steps; 2 terminated, 1 truncated"). */
  summary: string;
}

async function readHdf5(file: NamedFile, request: DatasetImportRequest): Promise<DatasetEpisodes> {
  const hdf5 = await Hdf5File.open(file.bytes, file.name);
  try {
    if (isRobomimicFile(hdf5)) return readRobomimic(hdf5, { obsKeys: request.obsKeys, filter: request.filter });
    if (request.obsKeys || request.filter !== undefined) {
      throw new DemosError(`obs_keys= and filter= pick robomimic demos, but ${file.name} is ${isD4rlFile(hdf5) ? 'a D4RL file' : 'no robomimic file'}; leave them out`);
    }
    if (isD4rlFile(hdf5)) return readD4rl(hdf5);
    const top = hdf5.keys('/');
    throw new DemosError(`${file.name} is neither a D4RL file (observations, actions, rewards, terminals, timeouts at its top) nor a robomimic one (data/demo_N/actions); its top level holds ${top.length > 0 ? top.join(', ') : 'nothing'}`);
  } finally {
    hdf5.close();
  }
}

/** Each file's role, told by its content; exactly one must be a dataset. */
function sortFiles(files: readonly NamedFile[]): { dataset: NamedFile; kind: 'hdf5' | 'zip'; normalization?: NamedFile } {
  if (files.length === 0) throw new DemosError('no file was given: give a D4RL or robomimic .hdf5, or a train.npz with its normalization.npz');
  const datasets: { file: NamedFile; kind: 'hdf5' | 'zip'; arrays?: Map<string, unknown> }[] = [];
  const normalizations: NamedFile[] = [];
  for (const file of files) {
    if (file.bytes.length > MAX_DATASET_FILE_BYTES) throw new DemosError(`${file.name} is ${file.bytes.length} bytes, over the ${MAX_DATASET_FILE_BYTES}-byte limit for a dataset read in memory`);
    const kind = datasetFileKind(file.bytes);
    if (kind === 'hdf5') {
      datasets.push({ file, kind });
    } else if (kind === 'zip') {
      const arrays = readNpzArrays(file);
      if (isNormalizationNpz(arrays) && !isTrainNpz(arrays)) normalizations.push(file);
      else if (isTrainNpz(arrays)) datasets.push({ file, kind });
      else throw new DemosError(`${file.name} is an .npz holding ${[...arrays.keys()].join(', ') || 'nothing'}, neither a train.npz (states, actions, traj_lengths) nor a normalization.npz (obs_min, obs_max, action_min, action_max)`);
    } else {
      throw new DemosError(`${file.name} is neither an HDF5 file (D4RL, robomimic) nor an .npz (ReinFlow/DPPO train.npz): its first bytes are no HDF5 signature or zip header`);
    }
  }
  if (datasets.length === 0) {
    throw new DemosError(`${normalizations.map((file) => file.name).join(', ')} ${normalizations.length === 1 ? 'is a normalization.npz' : 'are normalization files'}; give the train.npz it belongs to as well`);
  }
  if (datasets.length > 1) throw new DemosError(`${datasets.map((entry) => entry.file.name).join(', ')} are ${datasets.length} datasets: import one at a time`);
  if (normalizations.length > 1) throw new DemosError(`${normalizations.map((file) => file.name).join(', ')} are ${normalizations.length} normalization files: give the one written beside the train.npz`);
  const [{ file: dataset, kind }] = datasets;
  if (normalizations.length === 1 && kind === 'hdf5') {
    throw new DemosError(`${normalizations[0].name} undoes a train.npz's scaling, but ${dataset.name} is an HDF5 file, whose values are in env units already; leave it out`);
  }
  return { dataset, kind, normalization: normalizations[0] };
}

const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

export async function importDataset(request: DatasetImportRequest): Promise<ImportedDataset> {
  const { dataset, kind, normalization } = sortFiles(request.files);
  let episodes: DatasetEpisodes;
  if (kind === 'hdf5') {
    episodes = await readHdf5(dataset, request);
  } else {
    if (request.obsKeys || request.filter !== undefined) throw new DemosError(`obs_keys= and filter= pick robomimic demos, but ${dataset.name} is a train.npz; leave them out`);
    episodes = readReinflowTrain(dataset, readNpzArrays(dataset), normalization);
  }
  const { demos, metadata } = datasetDemos(episodes, request.task, dataset.name);
  const { terminated, truncated } = endCounts(episodes.terminated);
  const parts = [`${counted(metadata.episodes, 'episode')}, ${counted(metadata.steps, 'step')}; ${terminated} terminated, ${truncated} truncated`];
  if (episodes.obsSource) parts.push(episodes.obsSource);
  parts.push(...episodes.notes);
  const summary = `${dataset.name} (${LAYOUT_NAMES[episodes.layout]}${normalization ? ` with ${normalization.name}` : ''}) for ${request.task}: ${parts.join('; ')}`;
  return { demos, metadata, layout: episodes.layout, source: dataset.name, terminated, truncated, summary };
}
