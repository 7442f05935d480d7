/**
 * Which files of a dropped run or sweep folder go to the trainer worker: the text files a run or
 * sweep folder is made of (DESIGN.md §10, §11), never checkpoints or anything else.
 */

/** Run folders: metrics.jsonl, config.json, result.json; sweep folders add sweep.json and summary.json. */
export const IMPORTED_FILE_NAMES: ReadonlySet<string> = new Set(['metrics.jsonl', 'config.json', 'summary.json', 'sweep.json', 'result.json']);

/** The largest file read: a text file past this is not a run's metrics, and reading it would stall the page. */
export const MAX_IMPORT_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The '/'-separated path relative to the drop (top folder included) of a file to import, or
 * undefined for a file to skip. Accepts entry paths ("/sweep1/runs/a/config.json"), relative
 * paths ("sweep1/runs/a/config.json") and Windows separators.
 */
export function importedPath(path: string): string | undefined {
  const segments = path.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.');
  const name = segments.at(-1);
  return name !== undefined && IMPORTED_FILE_NAMES.has(name) ? segments.join('/') : undefined;
}

export interface ImportCandidate {
  path: string;
  /** Bytes. */
  size: number;
}

export type ImportSelection<T> = { files: (T & { path: string })[] } | { problem: string };

const mebibytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/**
 * The candidates to import, with normalized paths, in path order; or one sentence when a kept
 * file is too large or nothing is left to import.
 */
export function selectImportFiles<T extends ImportCandidate>(candidates: readonly T[]): ImportSelection<T> {
  const files: (T & { path: string })[] = [];
  for (const candidate of candidates) {
    const path = importedPath(candidate.path);
    if (path === undefined) continue;
    if (candidate.size > MAX_IMPORT_FILE_BYTES) {
      return { problem: `${path} is ${mebibytes(candidate.size)} MiB, over the ${mebibytes(MAX_IMPORT_FILE_BYTES)} MiB a run file may have; drop a folder with smaller metrics.` };
    }
    files.push({ ...candidate, path });
  }
  if (files.length === 0) {
    return { problem: 'Nothing to import: drop a run folder (metrics.jsonl and config.json) or a sweep folder (summary.json with runs/).' };
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files };
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * The success notice: "imported 1 sweep with 6 runs", "imported 2 runs", followed by any warning
 * ("imported 1 run; warning: a/metrics.jsonl: line 9 is cut short …").
 */
export function importSummary(result: { runs: readonly unknown[]; sweeps: readonly unknown[]; warnings?: readonly string[] }): string {
  const imported = result.sweeps.length > 0
    ? `imported ${count(result.sweeps.length, 'sweep')} with ${count(result.runs.length, 'run')}`
    : `imported ${count(result.runs.length, 'run')}`;
  return [imported, ...(result.warnings ?? []).map((warning) => `warning: ${warning}`)].join('; ');
}
