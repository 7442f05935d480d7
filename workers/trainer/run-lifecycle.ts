/**
 * A studio run's life around core/run (DESIGN.md §2): opening it (fresh, or restored from a save),
 * the same trainLoop, pause-save and rollback as the CLI's, with the browser's hooks around them:
 * the phases the page shows, events, the gallery's episodes, the inspection queue between
 * iterations, restarts of dead env workers and test builds' fault injection.
 */
import type { MetricRecord } from '../../src/core/metrics/metric-keys';
import type { Run } from '../../src/core/run/run';
import { isNonfiniteStop, MAX_ROLLBACKS, rollBackRun, saveRun, trainLoop } from '../../src/core/run/run-loop';
import type { Autosave } from '../../src/core/studio/run-autosave';
import type { EpisodeStore } from '../../src/core/studio/episode-store';
import type { RunListings } from '../../src/core/studio/run-listings';
import type { StudioRunStore } from '../../src/core/studio/studio-run-store';
import type { SavedRunSummary, TrainerEvent } from '../../src/protocol/trainer-api';
import type { FaultInjection } from './fault-injection';
import type { InspectionJobs } from './inspection-jobs';
import type { LoopControl, LoopOutcome } from './loop-control';
import type { ModelSelection } from './model-selection';
import type { PhaseBoard } from './phase-board';
import type { RunSlot } from './run-slot';

export interface RunLifecycleParts {
  control: LoopControl;
  board: PhaseBoard;
  slot: RunSlot;
  models: ModelSelection;
  listings: RunListings;
  episodes: EpisodeStore;
  inspections: InspectionJobs;
  emit: (event: TrainerEvent) => void;
  faults?: FaultInjection;
  /** Told each time the loop ends (the queue advances on it). */
  ended: (outcome: LoopOutcome) => void;
}

export class RunLifecycle {
  constructor(private readonly parts: RunLifecycleParts) {}

  /** A new run of the selected model and config; undefined (the error said) when it cannot open. */
  async openNew(): Promise<Run | undefined> {
    const { board, slot } = this.parts;
    board.set('starting', 'starting env workers…');
    try {
      return await slot.open();
    } catch (error) {
      board.fail(error);
      this.parts.ended({ kind: 'error', message: board.message ?? String(error) });
      return undefined;
    }
  }

  /** Reopens a saved run exactly where it was saved, paused; if it cannot be opened, nothing changes. */
  async restore(saved: Autosave): Promise<SavedRunSummary> {
    const { board, slot } = this.parts;
    board.set('starting', `restoring ${saved.listing.name} at iteration ${saved.summary.iteration}…`);
    const run = await slot.restore(saved).catch((error: unknown) => {
      board.set('idle');
      throw error;
    });
    board.set(run.done ? 'done' : 'paused', run.done ? `finished ${run.iteration} iterations` : `resumed ${saved.listing.name} at iteration ${saved.summary.iteration}`);
    return saved.summary;
  }

  /** Trains `run` the control stops it or the run is done; the phase says how it ended. */
  async run(run: Run, store: StudioRunStore): Promise<void> {
    const { board, slot, control, listings, inspections } = this.parts;
    const runId = () => listings.currentId;
    try {
      const end = await trainLoop(run, store, {
        shouldStop: control.shouldStop,
        beforeStep: () => this.parts.faults?.beforeStep(),
        recover: (error, attempt) => slot.recover(error, attempt) && (board.announce(), true),
        onRecord: (record) => this.afterIteration(run, record),
        // on_nonfinite=rollback took the run back by itself.
        onNote: (note) => this.rolledBack(run, () => this.parts.emit({ type: 'notice', message: note })),
      });
      if (slot.run !== run) return;
      board.set(end === 'done' ? 'done' : 'paused', end === 'done' ? `finished ${run.iteration} iterations` : `paused at iteration ${run.iteration}`);
      this.parts.ended({ kind: end === 'done' ? 'done' : 'paused', runId: runId() });
    } catch (error) {
      if (slot.run !== run) return;
      board.rollbackIteration = isNonfiniteStop(error) && run.rollbacks < MAX_ROLLBACKS ? listings.listing?.savedIteration : undefined;
      board.fail(error);
      this.parts.ended({ kind: 'error', message: board.message ?? String(error), runId: runId() });
    } finally {
      await inspections.runQueued();
    }
  }

  /** Parks the running loop (between iterations, or at the next decision or minibatch inside one) and saves the run there. */
  async pause(isRunning: () => boolean): Promise<void> {
    const { control, slot, board, emit } = this.parts;
    const parked = await control.pause();
    const run = slot.run;
    if (!parked || !isRunning() || !run || !slot.store) return;
    await saveRun(run, slot.store).catch((error: unknown) => {
      if (!slot.recover(error, 0)) emit({ type: 'error', name: 'AutosaveError', message: `the pause was not saved: ${(error as Error).message}` });
    });
    board.set('paused', `paused at iteration ${run.iteration}, mid-${control.pausedAt === 'minibatch' ? 'update' : 'rollout'}`);
    await this.parts.inspections.runQueued();
  }

  /** Back to the run's newest save with half the actor lr (core/run rollBackRun), paused; the metrics after it are dropped. */
  async rollBack(run: Run, store: StudioRunStore): Promise<void> {
    const note = await rollBackRun(run, store);
    this.rolledBack(run, () => this.parts.board.set('paused', note));
  }

  private async afterIteration(run: Run, record: MetricRecord): Promise<void> {
    const { control, emit, board, episodes, inspections } = this.parts;
    control.countIteration();
    emit({ type: 'metrics', record });
    board.announce();
    const { added, dropped } = episodes.addIteration(run, record);
    emit({ type: 'episodes', episodes: added, dropped });
    await inspections.runQueued();
  }

  /** After a rollback the run's config (actor_lr) and history are the checkpoint's: the page is told, then `say` the sentence. */
  private rolledBack(run: Run, say: () => void): void {
    this.parts.board.rollbackIteration = undefined;
    this.parts.models.followRun(run.config);
    this.parts.emit({ type: 'history', records: [...run.history] });
    say();
  }
}
