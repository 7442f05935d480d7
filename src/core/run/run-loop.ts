/**
 * The headless loop every non-interactive host shares (CLI train, sweep workers):
 * iterate until the run's budget is spent, hand each record to the store, and save a
 * checkpoint every `checkpoint_every` iterations and at the end.
 */
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import type { MetricRecord } from '../metrics/metric-keys';
import type { RunStore } from './run-ports';
import type { Run } from './run';

/** 'iter-000010.flowtune': sorts in iteration order. */
export function iterationCheckpointName(iteration: number): string {
  return `iter-${String(iteration).padStart(6, '0')}.flowtune`;
}

export async function trainToEnd(run: Run, store: RunStore, onRecord?: (record: MetricRecord) => void): Promise<void> {
  const every = run.config.checkpoint_every;
  while (!run.done) {
    const record = await run.step();
    await store.appendMetrics(record);
    onRecord?.(record);
    if (every > 0 && run.iteration % every === 0 && !run.done) {
      await store.saveCheckpoint(iterationCheckpointName(run.iteration), encodeFlowtune(await run.contents()), run.history);
    }
  }
  await store.saveCheckpoint('final.flowtune', encodeFlowtune(await run.contents()), run.history);
}
