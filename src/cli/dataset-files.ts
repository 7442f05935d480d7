/**
 * A dataset named on the command line (`npm run demos -- import=FILE`, DESIGN.md §18): its bytes,
 * with the normalization.npz of a ReinFlow/DPPO train.npz, given as normalization=FILE.npz or
 * found beside it (`normalization.npz`, or the train file's name with 'train' made 'normalization').
 * Files over the dataset size limit are refused before they are read.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MAX_DATASET_FILE_BYTES } from '../core/datasets/dataset-limits';
import { datasetFileKind } from '../core/datasets/file-kind';
import type { NamedFile } from '../core/datasets/import-dataset';
import { DemosError } from '../core/errors';

function readDataset(file: string, what: string): NamedFile {
  let bytes: Uint8Array;
  try {
    const size = statSync(file).size;
    if (size > MAX_DATASET_FILE_BYTES) throw new DemosError(`${what} '${file}' is ${size} bytes, over the ${MAX_DATASET_FILE_BYTES}-byte limit for a dataset read in memory`);
    bytes = new Uint8Array(readFileSync(file));
  } catch (error) {
    if (error instanceof DemosError) throw error;
    const code = (error as { code?: string }).code;
    throw new DemosError(code === 'ENOENT' ? `${what} '${file}' does not exist` : `${what} '${file}' cannot be read (${code ?? 'unknown error'})`);
  }
  return { name: path.basename(file), bytes };
}

/** The normalization.npz beside a train.npz, when one is there. */
function normalizationBeside(file: string): string | undefined {
  const folder = path.dirname(file);
  const base = path.basename(file);
  const candidates = [path.join(folder, 'normalization.npz')];
  if (base.includes('train')) candidates.push(path.join(folder, base.replace('train', 'normalization')));
  return candidates.find((candidate) => candidate !== file && existsSync(candidate));
}

/** The dataset and, for an .npz, its normalization.npz (named, or found beside it). */
export function readDatasetFiles(file: string, normalization: string): { files: NamedFile[]; normalizationPath?: string } {
  const dataset = readDataset(file, 'dataset');
  const normalizationPath = normalization || (datasetFileKind(dataset.bytes) === 'zip' ? normalizationBeside(file) : undefined);
  if (!normalizationPath) return { files: [dataset] };
  return { files: [dataset, readDataset(normalizationPath, 'normalization file')], normalizationPath };
}
