/**
 * A run folder's layout (DESIGN.md §10) and what `out=` may do with one (§15): a folder that
 * holds a run is never written over silently; resume=true continues its newest checkpoint and
 * overwrite=true replaces it.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './cli-args';
import { writeError } from './durable-write';

/** The files a run writes into its folder (checkpoints/ holds *.flowtune); a sweep's train.log beside them is the sweep's. */
export const RUN_FILES = ['config.json', 'metrics.jsonl', 'metrics.csv', 'backend.txt'] as const;
export const CHECKPOINTS_DIR = 'checkpoints';

const ITERATION_CHECKPOINT = /^iter-(\d+)\.flowtune$/;

/** What `out=` points at now. */
export type RunFolderState =
  | { kind: 'free' }
  | { kind: 'run'; files: string[]; checkpoints: string[] };

/** The .flowtune files in the folder's checkpoints/, by name. */
function checkpointNames(dir: string): string[] {
  const folder = path.join(dir, CHECKPOINTS_DIR);
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((name) => name.endsWith('.flowtune'));
}

/** Whether `dir` is free for a new run (absent or without run files) or holds one; a file in the way is a UsageError. */
export function runFolderState(dir: string): RunFolderState {
  if (!existsSync(dir)) return { kind: 'free' };
  if (!statSync(dir).isDirectory()) throw new UsageError('out', `out=${dir} is a file, not a folder; choose a folder for the run`);
  const files = RUN_FILES.filter((name) => existsSync(path.join(dir, name)));
  const checkpoints = checkpointNames(dir);
  return files.length === 0 && checkpoints.length === 0 ? { kind: 'free' } : { kind: 'run', files, checkpoints };
}

/** The checkpoint a resume continues from: final.flowtune when the run finished, else the highest iteration. */
export function newestCheckpoint(dir: string): string | undefined {
  const names = checkpointNames(dir);
  if (names.includes('final.flowtune')) return path.join(dir, CHECKPOINTS_DIR, 'final.flowtune');
  const iterations = names.map((name) => ({ name, iteration: Number(ITERATION_CHECKPOINT.exec(name)?.[1] ?? NaN) })).filter((entry) => Number.isFinite(entry.iteration));
  iterations.sort((a, b) => b.iteration - a.iteration);
  return iterations[0] ? path.join(dir, CHECKPOINTS_DIR, iterations[0].name) : undefined;
}

/**
 * The tfjs backend the run trained on (backend.txt), which a resume takes again so the run continues
 * bit-exact; undefined for a folder without one (written before it existed) or with an unknown name.
 */
export function readRunFolderBackend<Name extends string>(dir: string, known: readonly Name[]): Name | undefined {
  const file = path.join(dir, 'backend.txt');
  if (!existsSync(file)) return undefined;
  const name = readFileSync(file, 'utf8').trim();
  return known.find((backend) => backend === name);
}

/** The run folder's config.json as JSON. */
export function readRunFolderConfig(dir: string): unknown {
  const file = path.join(dir, 'config.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError('resume', `${file} cannot be read as JSON (${(error as Error).message}), so the run cannot be resumed`);
  }
}

/** Removes the files a run wrote (and nothing else in the folder), for overwrite=true. */
export function clearRunFolder(dir: string): void {
  const targets = [...RUN_FILES.map((name) => path.join(dir, name)), path.join(dir, CHECKPOINTS_DIR)];
  for (const target of targets) {
    try {
      rmSync(target, { recursive: true, force: true });
    } catch (error) {
      throw writeError(target, error, 'remove');
    }
  }
}

/** What a train command does with `out=`: start fresh, or resume from the folder's newest checkpoint. */
export type OutPlan = { kind: 'fresh'; clearFirst: boolean } | { kind: 'resume'; checkpoint: string };

/**
 * Decides what `out=` allows: a free folder takes a new run; one holding a run is refused
 * (exit 2, one sentence) unless resume=true or overwrite=true.
 */
export function planRunFolder(dir: string, options: { resume: boolean; overwrite: boolean }): OutPlan {
  if (options.resume && options.overwrite) throw new UsageError('overwrite', 'resume=true and overwrite=true contradict each other; give one');
  const state = runFolderState(dir);
  if (state.kind === 'free') {
    if (options.resume) throw new UsageError('resume', `resume=true needs a run to continue, but out=${dir} holds none`);
    return { kind: 'fresh', clearFirst: false };
  }
  // The caller clears the folder only once the checkpoint and config have passed their checks.
  if (options.overwrite) return { kind: 'fresh', clearFirst: true };
  const newest = newestCheckpoint(dir);
  if (options.resume) {
    if (!newest) throw new UsageError('resume', `out=${dir} holds a run with no checkpoint yet (no checkpoints/*.flowtune), so there is nothing to resume; use overwrite=true to start it over`);
    if (!existsSync(path.join(dir, 'config.json'))) throw new UsageError('resume', `out=${dir} has checkpoints but no config.json, so the run's config is unknown; use overwrite=true to start it over`);
    return { kind: 'resume', checkpoint: newest };
  }
  const held = [...state.files, ...(state.checkpoints.length > 0 ? [`${state.checkpoints.length} checkpoint${state.checkpoints.length > 1 ? 's' : ''}`] : [])].join(', ');
  const resumeHint = newest ? `resume=true to continue it from ${path.relative(dir, newest)}, ` : '';
  throw new UsageError('out', `out=${dir} already holds a run (${held}); add ${resumeHint}overwrite=true to replace it, or choose another out=`);
}
