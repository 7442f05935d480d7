/** What a host plugs into a run (DESIGN.md §2 "The run layer"). */
import type { CheckpointFiles } from '../checkpoint/checkpoint-open';
import type { BatchEnv } from '../envs/batch-env';
import type { VectorEnvConfig } from '../envs/vector-env-config';
import type { MetricRecord } from '../metrics/metric-keys';
import type { EnvPurpose } from './run-env-config';

/** Where a run can pause inside an iteration. */
export type PausePoint = 'decision' | 'minibatch';

export interface RunPorts {
  /** Opens a batch of envs: worker_threads in Node, Web Workers in the studio, or this thread. */
  openEnv(config: VectorEnvConfig, purpose: EnvPurpose): Promise<BatchEnv>;
  /** Milliseconds; a fixed clock makes timing metrics repeatable in tests. */
  clock?: () => number;
  /** Awaited before every decision and every PPO minibatch: where a host pauses a run. */
  pauseGate?: (where: PausePoint) => Promise<void>;
  /** Whether the training envs keep qpos and obs of finished episodes (replay, video). */
  recordEpisodes?: boolean;
}

/**
 * Where a run's checkpoints and metrics go: the CLI's run folder, or the studio's IndexedDB.
 * The loop (run-loop.ts) writes through it the same way for both.
 */
export interface RunStore {
  /** A checkpoint of the run as it is now (`name` is e.g. 'iter-000010.flowtune' or 'final.flowtune'), with the history so far. */
  saveCheckpoint(name: string, bytes: Uint8Array, history: readonly MetricRecord[]): Promise<void>;
  /** One finished iteration's metrics, in order. */
  appendMetrics(record: MetricRecord): Promise<void>;
  /** Replaces the stored metrics with `history` (after a rollback dropped the iterations past its checkpoint). */
  replaceMetrics(history: readonly MetricRecord[]): Promise<void>;
  /** The newest checkpoint saved for this run (not a final one), which a rollback returns to; undefined before the first. */
  newestCheckpoint(): Promise<{ files: CheckpointFiles; iteration: number } | undefined>;
}
