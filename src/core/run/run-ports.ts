/** What a host plugs into a run (DESIGN.md §2 "The run layer"). */
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

/** Where a headless run's files go (a run folder in Node; the studio autosaves to IndexedDB itself). */
export interface RunStore {
  /** A checkpoint of the run as it is now (`name` is e.g. 'iter-000010.flowtune' or 'final.flowtune'), with the history so far. */
  saveCheckpoint(name: string, bytes: Uint8Array, history: readonly MetricRecord[]): Promise<void>;
  /** One finished iteration's metrics, in order. */
  appendMetrics(record: MetricRecord): Promise<void>;
  /** Replaces the stored metrics with `history` (after a rollback dropped the iterations past its checkpoint). */
  replaceMetrics(history: readonly MetricRecord[]): Promise<void>;
}
