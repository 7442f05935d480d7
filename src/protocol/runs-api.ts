/**
 * The Runs tab's side of the trainer worker's surface (DESIGN.md §11 "In the studio"): the run list
 * kept in IndexedDB (studio runs, queue runs, imported run folders), imported sweeps, and the queue.
 */
import type { RunConfig } from '../core/config/run-config';
import type { MetricRecord } from '../core/metrics/metric-keys';
import type { SweepSummary } from '../core/sweep/sweep-summary';

/** Where a listed run came from. */
export type RunOrigin = 'studio' | 'queue' | 'imported';

/** One run in the list: what the table shows, without its metrics. */
export interface RunListing {
  /** Unique and stable, e.g. "studio-1732371200000" or "import-sweep1/runs/baseline-s0". */
  id: string;
  /** Display name: "pick-cube 14:02", a queue run's "lr:low · seed 1", or an imported folder's name. */
  name: string;
  origin: RunOrigin;
  task: string;
  /** Imported sweep runs: the sweep's id; queue runs: the queue's id. */
  group?: string;
  variant?: string;
  seed?: number;
  iterations: number;
  envSteps: number;
  /** The newest eval/success_rate in the run's metrics, when it evaluated. */
  finalSuccess?: number;
  /** The newest eval/episode_return, when it evaluated (what a task without a success rule is ranked by). */
  finalReturn?: number;
  createdAt: number;
  updatedAt: number;
  /** The run the trainer holds now (its metrics are the page's live records). */
  current: boolean;
  /** It ran all its iterations. */
  finished: boolean;
  /** The iteration of the weights it keeps (its newest save), so it can be resumed; absent when it keeps none. */
  savedIteration?: number;
}

/** A listed run with its config and metrics, for overlays and the config diff. */
export interface RunDetails {
  listing: RunListing;
  config: RunConfig;
  records: MetricRecord[];
}

/** A sweep folder's summary.json, kept with the ids of its imported runs. */
export interface ImportedSweep {
  id: string;
  /** The dropped folder's name. */
  name: string;
  summary: SweepSummary;
  runIds: string[];
  importedAt: number;
}

/** One text file of a dropped folder; `path` is relative to the drop, '/'-separated ("sweep1/runs/baseline-s0/config.json"). */
export interface DroppedFile {
  path: string;
  text: string;
}

/** What an import added. */
export interface ImportResult {
  runs: RunListing[];
  sweeps: ImportedSweep[];
  /** One sentence per metrics.jsonl whose torn last line was dropped; empty when none was. */
  warnings: string[];
}

/** The queue's request: a preset's variants (all when empty) × seeds, on the studio's config and model. */
export interface QueueRequest {
  preset: string;
  variants: string[];
  seeds: number[];
}

export type QueueItemState = 'pending' | 'running' | 'done' | 'failed';

export interface QueueItem {
  variant: string;
  seed: number;
  state: QueueItemState;
  /** The run's id in the list, once it started. */
  runId?: string;
  /** The failed run's one-sentence error. */
  error?: string;
}

/** running: an item trains; done: every item ended; cancelled: the user stopped it. */
export type QueuePhase = 'running' | 'done' | 'cancelled';

export interface QueueStatus {
  id: string;
  preset: string;
  task: string;
  phase: QueuePhase;
  items: QueueItem[];
  /** Index of the item that trains now, when phase is running. */
  currentIndex?: number;
}

/** The Runs tab: kept and imported runs, sweeps, and the queue. */
export interface RunsApi {
  /** Every kept run, newest first: the current one, past studio and queue runs, imported ones. */
  listRuns(): Promise<RunListing[]>;
  /** Config and metrics of the given runs, in the order asked; throws ImportError naming an unknown id. */
  runDetails(ids: string[]): Promise<RunDetails[]>;
  /** Forgets a kept run and its weights; the current run cannot be deleted (TrainingError). */
  deleteRun(id: string): Promise<void>;
  /** Imported sweeps, newest first. */
  listSweeps(): Promise<ImportedSweep[]>;
  /** Forgets an imported sweep and its runs. */
  deleteSweep(id: string): Promise<void>;
  /**
   * Keeps the run folders (metrics.jsonl + config.json) and sweep folders (summary.json, runs/<id>/)
   * among the dropped files. A folder that is neither, or a corrupt file, throws ImportError with
   * one sentence naming the file; nothing is kept then.
   */
  importFolder(files: DroppedFile[]): Promise<ImportResult>;
  /** Starts a queue of the preset's variants × seeds from the selected model and the config in force; refused while a run is active. */
  startQueue(request: QueueRequest): Promise<QueueStatus>;
  /** Stops the queue after pausing its run; the runs it finished stay in the list. */
  cancelQueue(): Promise<void>;
  /** The queue, or null. */
  queueStatus(): Promise<QueueStatus | null>;
  /** After a reload: restores the interrupted queue run from its autosave and trains on; null when no queue was running. */
  resumeQueue(): Promise<QueueStatus | null>;
}
