/** The parts of the studio's training session that its queue drives (the trainer worker's TrainingSession has them). */
import type { RunConfig } from '../config/run-config';
import type { CheckpointFiles } from '../../protocol/trainer-api';
import type { RunLabel } from './run-listings';

/** How the session's training loop ended; `runId` names the run it trained. */
export type LoopEnd = ({ kind: 'done' | 'paused' | 'reset' } | { kind: 'error'; message: string }) & { runId?: string };

export interface QueueSession {
  readonly phase: string;
  readonly config: RunConfig;
  readonly run?: { readonly done: boolean };
  readonly currentRunId?: string;
  /** Set by the queue: told whenever the session's loop ends. */
  onLoopEnd?: (outcome: LoopEnd) => void;
  readonly listings: { nextLabel?: RunLabel };
  readonly models: {
    readonly selected?: { readonly files: CheckpointFiles };
    /** Selects the model and config of the next run. */
    prepareRun(files: CheckpointFiles | undefined, config: RunConfig): void;
  };
  reset(): Promise<void>;
  /** Reopens the offered saved run; `train` false leaves it paused. */
  resume(runId: undefined, train: boolean): Promise<unknown>;
  /** Opens a run when none is open and starts its loop; returns once the loop started (or the run failed to open). */
  train(): Promise<void>;
  pause(): Promise<void>;
  /** Resolves once the loop that ended has unwound. */
  loopSettled(): Promise<void>;
}
