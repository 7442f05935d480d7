/**
 * The one training loop every host drives (DESIGN.md §2 "One path for every host"): the CLI's
 * train, sweep workers (through it) and the studio's trainer worker. It iterates until the run's
 * budget is spent or the host asks it to stop, hands each record to the store, saves a checkpoint
 * through the store every `checkpoint_every` iterations and when it ends (the autosave rule of
 * both hosts), and with on_nonfinite=rollback sends the run back to the store's newest checkpoint
 * with half the actor lr after repeated non-finite updates. Pausing inside an iteration is the
 * run's pause gate; resuming a saved run is openRun's.
 */
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { TrainingError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import type { CheckpointFiles } from '../checkpoint/checkpoint-open';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import type { RunConfig } from '../config/run-config';
import type { RunStore } from './run-ports';

/** What the loop drives: a flow policy's Run or the Gaussian baseline's GaussianRun. */
export interface TrainingRun {
  readonly config: RunConfig;
  readonly done: boolean;
  readonly iteration: number;
  readonly history: MetricRecord[];
  readonly rollbacks: number;
  step(): Promise<MetricRecord>;
  contents(): Promise<FlowtuneContents>;
  /** Back to a checkpoint this run saved, with half the actor lr; returns a sentence when the resume is not exact. */
  rollBackTo(files: CheckpointFiles): Promise<string | undefined>;
}

/** Rollbacks one run may take before the non-finite updates stop it after all. */
export const MAX_ROLLBACKS = 4;

/** 'iter-000010.flowtune': sorts in iteration order. */
export function iterationCheckpointName(iteration: number): string {
  return `iter-${String(iteration).padStart(6, '0')}.flowtune`;
}

export interface TrainLoopHooks {
  /** Each finished iteration's record, after the store has it. */
  onRecord?: (record: MetricRecord) => void | Promise<void>;
  /** A sentence for the log, e.g. that the run rolled back. */
  onNote?: (note: string) => void;
  /** Asked before every iteration: true ends the loop with the run unfinished (a pause, a step limit). */
  shouldStop?: () => boolean;
  /** Called before every iteration's step (test builds inject faults here). */
  beforeStep?: () => void;
  /**
   * An iteration threw: return true when the host recovered (it restarted dead env workers) and the
   * iteration should run again; `attempt` counts the tries of this iteration so far.
   */
  recover?: (error: unknown, attempt: number) => boolean;
}

/** How the loop ended: every iteration done, or stopped by the host with the run unfinished. */
export type LoopEnd = 'done' | 'stopped';

/** True for the error ppoUpdate throws after ppo.max_nonfinite_skips skipped updates in a row. */
export function isNonfiniteStop(error: unknown): error is TrainingError {
  return error instanceof TrainingError && error.reason === 'nonfinite-updates';
}

/** Saves the run as it is now through the store: `final.flowtune` once done, else its iteration's checkpoint. */
export async function saveRun(run: TrainingRun, store: RunStore): Promise<void> {
  const name = run.done ? 'final.flowtune' : iterationCheckpointName(run.iteration);
  await store.saveCheckpoint(name, encodeFlowtune(await run.contents()), run.history);
}

/**
 * Back to the store's newest checkpoint of this run with half the actor lr (Run.rollBack); the
 * store's metrics are replaced by the checkpoint's history. Returns the sentence that says so.
 */
export async function rollBackRun(run: TrainingRun, store: RunStore): Promise<string> {
  if (run.rollbacks >= MAX_ROLLBACKS) throw new TrainingError(`the run already rolled back ${MAX_ROLLBACKS} times`, 'nonfinite-updates');
  const newest = await store.newestCheckpoint();
  if (!newest) throw new TrainingError('no checkpoint was saved yet to roll back to (set checkpoint_every)', 'nonfinite-updates');
  const note = await run.rollBackTo(newest.files);
  await store.replaceMetrics(run.history);
  return `non-finite updates: rolled back to iteration ${newest.iteration} with actor_lr ${run.config.actor_lr} (rollback ${run.rollbacks} of at most ${MAX_ROLLBACKS})${note ? `; ${note}` : ''}`;
}

/** saveRun, except that a failure the host recovers from (its env workers were rebuilt, so there was no env state to save) skips this save. */
async function saveRecovering(run: TrainingRun, store: RunStore, hooks: TrainLoopHooks): Promise<void> {
  try {
    await saveRun(run, store);
  } catch (error) {
    if (!hooks.recover?.(error, 0)) throw error;
  }
}

async function stepOnce(run: TrainingRun, hooks: TrainLoopHooks): Promise<MetricRecord> {
  for (let attempt = 0; ; attempt++) {
    try {
      hooks.beforeStep?.();
      return await run.step();
    } catch (error) {
      if (!hooks.recover?.(error, attempt)) throw error;
    }
  }
}

export async function trainLoop(run: TrainingRun, store: RunStore, hooks: TrainLoopHooks = {}): Promise<LoopEnd> {
  const every = run.config.checkpoint_every;
  while (!run.done && !hooks.shouldStop?.()) {
    let record: MetricRecord;
    try {
      record = await stepOnce(run, hooks);
    } catch (error) {
      if (run.config.on_nonfinite !== 'rollback' || !isNonfiniteStop(error)) throw error;
      const note = await rollBackRun(run, store).catch((failure: unknown) => {
        throw new TrainingError(`${error.message}; ${(failure as Error).message}`, error.reason);
      });
      hooks.onNote?.(note);
      continue;
    }
    await store.appendMetrics(record);
    await hooks.onRecord?.(record);
    if (every > 0 && run.iteration % every === 0 && !run.done) await saveRecovering(run, store, hooks);
  }
  // Done: the final checkpoint. Stopped: where the run stands, so it resumes from there.
  if (run.done || run.iteration > 0) await saveRecovering(run, store, hooks);
  return run.done ? 'done' : 'stopped';
}
