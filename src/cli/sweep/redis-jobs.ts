import type { SweepRun } from '../../core/sweep/sweep-plan';
import type { SweepRunResult } from '../../core/sweep/sweep-summary';

/** One queued run: everything a worker on another machine needs besides the checkpoint bytes (fetched once by key). */
export interface SweepJobData {
  sweepId: string;
  task: string;
  /** Redis key holding the pretrained checkpoint every run starts from. */
  ckptKey: string;
  run: SweepRun;
  evaluation: { episodes: number; seed: number };
}

/** What a worker sends back: the evaluated result and the run folder's files (binary ones base64). */
export interface SweepJobReturn {
  result: SweepRunResult;
  files: Record<string, string>;
  worker: string;
}

/** The run-folder files that travel back to the sweep folder; the checkpoint is binary. */
export const RETURNED_FILES = ['metrics.jsonl', 'metrics.csv', 'config.json', 'train.log', 'checkpoints/final.flowtune'] as const;
export const isBinaryFile = (name: string) => name.endsWith('.flowtune');

/** The job id of a run in a sweep: a run is queued once however often the sweep command runs. */
export const sweepJobId = (sweepId: string, runId: string) => `${sweepId}-${runId}`;
