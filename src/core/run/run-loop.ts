/**
 * The headless loop every non-interactive host shares (CLI train, sweep workers):
 * iterate until the run's budget is spent, hand each record to the store, and save a
 * checkpoint every `checkpoint_every` iterations and at the end. With on_nonfinite=rollback,
 * repeated non-finite updates send the run back to its newest checkpoint with half the actor lr.
 */
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { TrainingError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import { reopenCheckpoint } from './open-checkpoint';
import type { RunStore } from './run-ports';
import type { Run } from './run';

/** Rollbacks one run may take before the non-finite updates stop it after all. */
export const MAX_ROLLBACKS = 4;

/** 'iter-000010.flowtune': sorts in iteration order. */
export function iterationCheckpointName(iteration: number): string {
  return `iter-${String(iteration).padStart(6, '0')}.flowtune`;
}

export interface TrainLoopHooks {
  onRecord?: (record: MetricRecord) => void;
  /** A sentence for the log, e.g. that the run rolled back. */
  onNote?: (note: string) => void;
}

/** True for the error ppoUpdate throws after ppo.max_nonfinite_skips skipped updates in a row. */
export function isNonfiniteStop(error: unknown): error is TrainingError {
  return error instanceof TrainingError && error.reason === 'nonfinite-updates';
}

export async function trainToEnd(run: Run, store: RunStore, hooks: TrainLoopHooks = {}): Promise<void> {
  const every = run.config.checkpoint_every;
  const rollback = run.config.on_nonfinite === 'rollback';
  // The newest checkpoint written (kept in memory, as the run would reopen it from the store).
  let lastSaved: { bytes: Uint8Array; iteration: number } | undefined;
  while (!run.done) {
    let record: MetricRecord;
    try {
      record = await run.step();
    } catch (error) {
      if (!rollback || !isNonfiniteStop(error)) throw error;
      if (!lastSaved) throw new TrainingError(`${error.message}; no checkpoint was saved yet to roll back to (set checkpoint_every)`, error.reason);
      if (run.rollbacks >= MAX_ROLLBACKS) throw new TrainingError(`${error.message}; the run already rolled back ${MAX_ROLLBACKS} times`, error.reason);
      const checkpoint = reopenCheckpoint({ kind: 'flowtune', name: iterationCheckpointName(lastSaved.iteration), bytes: lastSaved.bytes }, run.config);
      const note = await run.rollBack(checkpoint);
      await store.replaceMetrics(run.history);
      hooks.onNote?.(`non-finite updates: rolled back to the checkpoint of iteration ${lastSaved.iteration} with actor_lr ${run.config.actor_lr} (rollback ${run.rollbacks} of at most ${MAX_ROLLBACKS})${note ? `; ${note}` : ''}`);
      continue;
    }
    await store.appendMetrics(record);
    hooks.onRecord?.(record);
    if (every > 0 && run.iteration % every === 0 && !run.done) {
      const bytes = encodeFlowtune(await run.contents());
      await store.saveCheckpoint(iterationCheckpointName(run.iteration), bytes, run.history);
      lastSaved = { bytes, iteration: run.iteration };
    }
  }
  await store.saveCheckpoint('final.flowtune', encodeFlowtune(await run.contents()), run.history);
}
