/**
 * Run and sweep folders dropped into the studio (DESIGN.md §11 "In the studio"). A run folder holds
 * `metrics.jsonl` and `config.json` (§10); a sweep folder holds `summary.json` and its runs under
 * `runs/<id>/`. Every file is checked before anything is returned, so a corrupt one imports nothing;
 * only a torn last line of a metrics.jsonl (a crash mid-append) is dropped, with a warning.
 */
import { configFromJson } from '../config/json';
import type { RunConfig } from '../config/run-config';
import { ImportError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import { parseMetricsJsonl } from '../metrics/serialize';
import { parseSweepSummaryJson, type SweepSummaryFile } from './sweep-summary-json';

/** One text file of the drop; `path` is relative to it, '/'-separated. */
export interface FolderFile {
  path: string;
  text: string;
}

export interface ImportedRunFolder {
  /** The run folder's path within the drop, e.g. "sweep1/runs/baseline-s0". */
  folder: string;
  config: RunConfig;
  records: MetricRecord[];
  /** The sweep folder it belongs to, with its variant and seed there. */
  sweepFolder?: string;
  variant?: string;
  seed?: number;
}

export interface ImportedSweepFolder {
  folder: string;
  summary: SweepSummaryFile;
  /** Its run folders that were dropped along with it. */
  runFolders: string[];
}

export interface ImportedFolders {
  runs: ImportedRunFolder[];
  sweeps: ImportedSweepFolder[];
  /** One sentence per file whose torn last line was dropped (DESIGN.md §15); empty when none was. */
  warnings: string[];
}

const normalize = (path: string) => path.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
const dirOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const join = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

function parseJson(file: FolderFile): unknown {
  try {
    return JSON.parse(file.text);
  } catch (error) {
    throw new ImportError(`${file.path} is not valid JSON (${(error as Error).message})`);
  }
}

/** Re-throws a parser's named error as ImportError, keeping its sentence. */
function asImportError<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const message = (error as Error).message;
    throw new ImportError(message.includes(path) ? message : `${path}: ${message}`);
  }
}

/** The variant and seed of run `id` in a sweep: from its summary, else from the run's result.json. */
function sweepRunLabel(summary: SweepSummaryFile, id: string, result: FolderFile | undefined): { variant?: string; seed?: number } {
  const listed = summary.runs.find((run) => run.id === id);
  if (listed) return { variant: listed.variant, seed: listed.seed };
  if (!result) return {};
  const json = parseJson(result) as { variant?: unknown; seed?: unknown };
  return {
    variant: typeof json.variant === 'string' ? json.variant : undefined,
    seed: typeof json.seed === 'number' ? json.seed : undefined,
  };
}

/** The run and sweep folders among the files; throws ImportError naming the first bad file, or saying none was found. */
export function readDroppedFolders(dropped: readonly FolderFile[]): ImportedFolders {
  const files = new Map<string, FolderFile>();
  for (const file of dropped) {
    const path = normalize(file.path);
    files.set(path, { path, text: file.text });
  }
  const sweeps: ImportedSweepFolder[] = [];
  for (const file of files.values()) {
    if (baseOf(file.path) !== 'summary.json') continue;
    const summary = asImportError(file.path, () => parseSweepSummaryJson(parseJson(file), file.path));
    sweeps.push({ folder: dirOf(file.path), summary, runFolders: [] });
  }
  const runs: ImportedRunFolder[] = [];
  const warnings: string[] = [];
  for (const file of files.values()) {
    if (baseOf(file.path) !== 'metrics.jsonl') continue;
    const folder = dirOf(file.path);
    const configFile = files.get(join(folder, 'config.json'));
    if (!configFile) throw new ImportError(`${file.path} has no config.json beside it: a run folder needs both files`);
    const config = asImportError(configFile.path, () => configFromJson(parseJson(configFile), configFile.path));
    const { records, warning } = asImportError(file.path, () => parseMetricsJsonl(file.text, file.path));
    if (warning !== undefined) warnings.push(warning);
    if (records.length === 0) throw new ImportError(`${file.path} holds no metric records`);
    const run: ImportedRunFolder = { folder, config, records };
    // A sweep's runs live in <sweep>/runs/<id>/.
    const sweep = sweeps.find((candidate) => dirOf(folder) === join(candidate.folder, 'runs'));
    if (sweep) {
      const label = sweepRunLabel(sweep.summary, baseOf(folder), files.get(join(folder, 'result.json')));
      Object.assign(run, { sweepFolder: sweep.folder, ...label });
      sweep.runFolders.push(folder);
    }
    runs.push(run);
  }
  if (runs.length === 0 && sweeps.length === 0) {
    throw new ImportError('the dropped files hold no run folder (metrics.jsonl with config.json) and no sweep folder (summary.json)');
  }
  runs.sort((a, b) => a.folder.localeCompare(b.folder));
  warnings.sort();
  return { runs, sweeps, warnings };
}
