/**
 * What travels through the sweep queue (DESIGN.md §11, §15). Everything that arrives through it is
 * untrusted: a worker checks a job's data before it runs anything, and the sweep checks what a
 * worker returns before anything lands in the sweep folder.
 */
import { applyOverrides, defaultConfig, parseOverride, validateConfig, type RunConfig } from '../../core/config';
import { getTask, hasTask } from '../../core/envs/task-registry';
import type { SweepRun } from '../../core/sweep/sweep-plan';

/** One queued run: everything a worker on another machine needs besides the checkpoint bytes (fetched once by key). */
export interface SweepJobData {
  sweepId: string;
  task: string;
  /** The task's hash on the sweep's machine (DESIGN.md §13): a worker whose task differs refuses the run. */
  taskHash: string;
  /** Redis key holding the pretrained checkpoint every run starts from: `flowtune:checkpoint:<sha256 of its bytes>`; '' for a fresh policy. */
  ckptKey: string;
  run: SweepRun;
}

/** What a worker sends back: the run folder's files (binary ones base64), and who trained it. */
export interface SweepJobReturn {
  files: Record<string, string>;
  worker: string;
}

/** The run-folder files that travel back to the sweep folder, under these names only; the checkpoint is binary. */
export const RETURNED_FILES = ['metrics.jsonl', 'metrics.csv', 'config.json', 'train.log', 'checkpoints/final.flowtune'] as const;
export type ReturnedFile = typeof RETURNED_FILES[number];
/** Without these a returned run cannot be evaluated or summarized. */
const REQUIRED_FILES: readonly ReturnedFile[] = ['metrics.jsonl', 'config.json', 'checkpoints/final.flowtune'];
export const isBinaryFile = (name: string) => name.endsWith('.flowtune');

/** Largest returned file accepted (base64 text counts as sent). */
export const MAX_RETURNED_FILE_CHARS = 512 * 1024 * 1024;
const MAX_OVERRIDES = 200;
const MAX_OVERRIDE_CHARS = 400;

export const CHECKPOINT_KEY_PREFIX = 'flowtune:checkpoint:';
const CHECKPOINT_KEY = /^flowtune:checkpoint:([0-9a-f]{64})$/;
const SWEEP_ID = /^[0-9a-f]{12}$/;
/** Run ids are a variant name with ':' as '-' and a seed: plain words only, so a log line cannot be forged. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The job id of a run in a sweep: a run is queued once however often the sweep command runs. */
export const sweepJobId = (sweepId: string, runId: string) => `${sweepId}-${runId}`;

/** The sha256 (hex) a checkpoint key names. */
export function checkpointKeyHash(key: string): string | undefined {
  return CHECKPOINT_KEY.exec(key)?.[1];
}

/** A job or a returned run that breaks the rules; the message says which field and why. */
export class QueueDataError extends Error {
  override readonly name = 'QueueDataError' as const;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Printable, bounded text for a log line from something a stranger sent. */
export function loggable(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/**
 * A job's data checked field by field: a task this worker has (a built-in, or one of its own task
 * folders) at the same version, a checkpoint key by content hash, a plain run
 * id, and overrides that are config keys only (never `out`, `ckpt` or `preset`), which together pass
 * the same validation as the command line, with at most `limits.maxEnvWorkers` env threads. Returns
 * the run's config; throws QueueDataError.
 */
export function checkJobData(data: unknown, limits: { maxEnvWorkers: number } = { maxEnvWorkers: Infinity }): { job: SweepJobData; config: RunConfig } {
  if (!isObject(data)) throw new QueueDataError('the job data is not an object');
  const { sweepId, task, taskHash, ckptKey, run } = data;
  if (typeof task !== 'string' || task.length > 100) throw new QueueDataError(`task ${loggable(task)} is not a task name`);
  if (!hasTask(task)) throw new QueueDataError(`this worker has no task '${loggable(task)}'; start it with tasks=DIR, a folder holding that task's folder`);
  if (typeof taskHash !== 'string' || !/^[0-9a-f]{16}$/.test(taskHash)) throw new QueueDataError(`taskHash ${loggable(taskHash)} is not 16 hex digits`);
  if (getTask(task).hash !== taskHash) {
    throw new QueueDataError(`task '${task}' on this worker (hash ${getTask(task).hash}) is another version than the sweep's (hash ${taskHash}); give the worker the sweep's copy of the task`);
  }
  if (typeof sweepId !== 'string' || !SWEEP_ID.test(sweepId)) throw new QueueDataError(`sweepId ${loggable(sweepId)} is not 12 hex digits`);
  if (typeof ckptKey !== 'string' || (ckptKey !== '' && checkpointKeyHash(ckptKey) === undefined)) throw new QueueDataError(`ckptKey ${loggable(ckptKey)} is not ${CHECKPOINT_KEY_PREFIX}<sha256> (or '' for a fresh policy)`);
  if (!isObject(run)) throw new QueueDataError('run is not an object');
  const { id, variant, seed, overrides } = run;
  if (typeof id !== 'string' || !RUN_ID.test(id)) throw new QueueDataError(`run.id ${loggable(id)} is not a plain run name (letters, digits, '.', '_', '-')`);
  if (typeof variant !== 'string' || variant.length > 100) throw new QueueDataError(`run.variant ${loggable(variant)} is not a short string`);
  if (!Number.isInteger(seed)) throw new QueueDataError(`run.seed ${loggable(seed)} is not an integer`);
  if (!Array.isArray(overrides) || overrides.length > MAX_OVERRIDES) throw new QueueDataError(`run.overrides is not a list of at most ${MAX_OVERRIDES} key=value strings`);
  for (const override of overrides) {
    if (typeof override !== 'string' || override.length > MAX_OVERRIDE_CHARS || /[\0\r\n]/.test(override)) {
      throw new QueueDataError(`run.overrides holds ${loggable(override)}, not a key=value string of at most ${MAX_OVERRIDE_CHARS} characters`);
    }
  }
  let config: RunConfig;
  try {
    // Config keys only: parseOverride refuses anything else (out=, ckpt=, preset=, unknown keys).
    for (const override of overrides as string[]) parseOverride(override);
    config = validateConfig(applyOverrides(defaultConfig(), [`task=${task}`, ...(overrides as string[])]));
  } catch (error) {
    throw new QueueDataError(`the run's config is refused: ${(error as Error).message}`);
  }
  if (config.task !== task) throw new QueueDataError(`run.overrides set task=${config.task}, but the job is for ${task}`);
  // The command line allows 256 env threads for a big machine; a job gets no more than this worker's cores.
  if (config.env.workers > limits.maxEnvWorkers) throw new QueueDataError(`env.workers=${config.env.workers} is more than this worker's ${limits.maxEnvWorkers} cores`);
  return { job: { sweepId, task, taskHash, ckptKey, run: { id, variant, seed: seed as number, overrides: [...overrides as string[]] } }, config };
}

/**
 * A worker's reply, checked: only RETURNED_FILES names, strings within the size cap, the required
 * files present. Names outside the list are dropped and reported in `refused` (with the reason),
 * never written anywhere.
 */
export function checkJobReturn(value: unknown): { files: Map<ReturnedFile, string>; worker: string; refused: string[] } {
  if (!isObject(value)) throw new QueueDataError('the worker\'s reply is not an object');
  const worker = loggable(value.worker, 100);
  if (!isObject(value.files)) throw new QueueDataError(`the reply of worker ${worker} holds no files object`);
  const files = new Map<ReturnedFile, string>();
  const refused: string[] = [];
  for (const [name, content] of Object.entries(value.files)) {
    if (!(RETURNED_FILES as readonly string[]).includes(name)) {
      refused.push(`${loggable(name)} (not one of ${RETURNED_FILES.join(', ')})`);
    } else if (typeof content !== 'string' || content.length > MAX_RETURNED_FILE_CHARS) {
      refused.push(`${name} (not a string of at most ${MAX_RETURNED_FILE_CHARS} characters)`);
    } else {
      files.set(name as ReturnedFile, content);
    }
  }
  const missing = REQUIRED_FILES.filter((name) => !files.has(name));
  if (missing.length > 0) throw new QueueDataError(`the reply of worker ${worker} lacks ${missing.join(', ')}`);
  return { files, worker, refused };
}
