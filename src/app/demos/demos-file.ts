/** Which dropped or chosen files are demos (a `.demos` file, or a dataset to convert), and the sentence when a drop is refused. */

/** Extensions of the datasets the studio converts: D4RL and robomimic HDF5, ReinFlow/DPPO train.npz and normalization.npz. */
const DATASET_FILE = /\.(hdf5|h5|npz)$/i;

export type DroppedDemos<T> = { kind: 'demos'; file: T } | { kind: 'dataset'; files: T[] };

const WHAT_TO_DROP = 'drop demos recorded here or by npm run demos, a D4RL or robomimic .hdf5, or a train.npz with its normalization.npz';

/**
 * The one `.demos` file among those given, or the dataset files (the dataset and, for a train.npz,
 * its normalization.npz: the worker tells which is which by what they hold), or the sentence refusing the drop.
 */
export function chooseDroppedDemos<T extends { name: string }>(files: readonly T[]): DroppedDemos<T> | string {
  const demos = files.filter((file) => file.name.toLowerCase().endsWith('.demos'));
  const datasets = files.filter((file) => DATASET_FILE.test(file.name));
  if (demos.length > 1) return `${demos.length} .demos files were dropped: drop one at a time.`;
  if (demos.length === 1 && datasets.length > 0) return `${[...demos, ...datasets].map((file) => file.name).join(', ')} were dropped together: drop the .demos file or the dataset, not both.`;
  if (demos.length === 1) return { kind: 'demos', file: demos[0] };
  if (datasets.length > 0) return { kind: 'dataset', files: datasets };
  if (files.length === 0) return 'No file was dropped: drop a .demos file or a dataset, or click to choose one.';
  const names = files.map((file) => file.name).join(', ');
  return `${names} ${files.length === 1 ? 'is neither a .demos file nor a dataset' : 'are neither .demos files nor datasets'}: ${WHAT_TO_DROP}.`;
}

/** The worker's sentence, naming the file when the sentence does not already name one of those dropped. */
export function refusalText(fileNames: string | readonly string[], message: string): string {
  const names = typeof fileNames === 'string' ? [fileNames] : fileNames;
  const sentence = message.trim().replace(/\.$/, '');
  return names.some((name) => sentence.includes(name)) ? `${sentence}.` : `${names.join(' and ')} ${names.length === 1 ? 'was' : 'were'} refused: ${sentence}.`;
}

/** robomimic's obs_keys as typed ("object, robot0_eef_pos"), or undefined when empty. */
export function parseObsKeys(text: string): string[] | undefined {
  const keys = text.split(',').map((key) => key.trim()).filter((key) => key !== '');
  return keys.length > 0 ? keys : undefined;
}
