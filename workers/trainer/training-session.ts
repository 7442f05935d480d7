/**
 * The trainer worker's host of a run (DESIGN.md §2): what is the browser's and nothing else. The
 * run, its loop, saves, rollback and resume are core/run's, driven as the CLI drives them, with
 * IndexedDB as the store; this file adds the phases the page shows, pausing through the decision
 * gate, restarting dead env workers, the gallery's episodes and the inspection queue. Pausing takes
 * effect at the next decision or PPO minibatch; weights and optimizer change only when an
 * iteration's update runs, so a pause loses nothing.
 */
import type { RunConfig } from '../../src/core/config';
import { TrainingError } from '../../src/core/errors';
import type { Run } from '../../src/core/run/run';
import type { RunPhase, RunStatus, SavedRunSummary, TrainerEvent } from '../../src/protocol/trainer-api';
import type { BackendName } from '../../src/core/backend/choose-backend';
import { EpisodeStore } from '../../src/core/studio/episode-store';
import type { FaultInjection } from './fault-injection';
import { InspectionJobs } from './inspection-jobs';
import { LoopControl, type LoopOutcome } from './loop-control';
import { PhaseBoard } from './phase-board';
import { ModelSelection } from './model-selection';
import { RunListings } from '../../src/core/studio/run-listings';
import { SavedRunOffers } from '../../src/core/studio/saved-run-offers';
import { autosaves, runArchive, savedRuns } from './indexeddb-stores';
import { StudioEnvs } from './studio-envs';
import { RunSlot } from './run-slot';
import { RunLifecycle } from './run-lifecycle';

export class TrainingSession {
  private readonly control = new LoopControl();
  private readonly envs: StudioEnvs;
  private readonly slot: RunSlot;
  private readonly board: PhaseBoard;
  private readonly lifecycle: RunLifecycle;
  private listener?: (event: TrainerEvent) => void;
  readonly emit = (event: TrainerEvent): void => {
    this.listener?.(event);
    if (event.type === 'model' || event.type === 'config') this.onSelection?.();
  };
  /** The next run's config and model. */
  readonly models: ModelSelection;
  /** The current run's entry in the Runs list. */
  readonly listings = new RunListings(this.emit, runArchive);
  /** The run a reload offers to resume. */
  readonly offers = new SavedRunOffers(this.emit, this.listings, savedRuns, runArchive);
  /** Chain- and path-view samples: never during an update. */
  readonly inspections = new InspectionJobs(() => this.iterationBusy());
  /** Recorded episodes for the gallery and replay. */
  readonly episodes = new EpisodeStore();
  /** Why Train must wait (the demos flow is busy); undefined when it need not. */
  blockedBy?: () => string | undefined;
  /** Told each time the training loop ends (the queue advances on it). */
  onLoopEnd?: (outcome: LoopOutcome) => void;
  /** Told when the next run's model or config changed (the backend choice may time again). */
  onSelection?: () => void;
  /**
   * Awaited as a run opens, before its tensors exist (the backend choice times the model there, or
   * takes back the backend a restored run was saved on).
   */
  beforeOpen?: (savedOn?: BackendName) => Promise<void>;

  constructor(config: RunConfig, faults?: FaultInjection) {
    this.models = new ModelSelection(config, this.emit, () => this.run);
    this.envs = new StudioEnvs(faults);
    this.slot = new RunSlot({
      models: this.models, listings: this.listings, offers: this.offers, autosaves, envs: this.envs, pauseGate: this.control.pauseGate, emit: this.emit,
      beforeOpen: async (savedOn) => this.beforeOpen?.(savedOn),
    });
    this.board = new PhaseBoard(this.emit, () => ({ run: this.run, task: this.config.task, savedIteration: this.slot.store?.savedIteration, envRestarts: this.envs.restarts }));
    this.lifecycle = new RunLifecycle({
      control: this.control, board: this.board, slot: this.slot, models: this.models, listings: this.listings,
      episodes: this.episodes, inspections: this.inspections, emit: this.emit, faults, ended: (outcome) => this.onLoopEnd?.(outcome),
    });
  }

  get phase(): RunPhase {
    return this.board.phase;
  }

  get run(): Run | undefined {
    return this.slot.run;
  }

  get config(): RunConfig {
    return this.models.config;
  }

  /** A run exists (training, paused, stopped, done or failed) until Reset. */
  get hasRun(): boolean {
    return this.slot.run !== undefined;
  }

  get currentRunId(): string | undefined {
    return this.listings.currentId;
  }

  setListener(listener: ((event: TrainerEvent) => void) | undefined): void {
    this.listener = listener;
  }

  /** Resolves when the training loop (if any) has fully ended. */
  loopSettled(): Promise<void> {
    return this.control.settled();
  }

  status(): RunStatus {
    return this.board.status();
  }

  /** Starts a run, or continues a paused one, for at most `steps` iterations. */
  async train(steps = Infinity): Promise<void> {
    if (this.iterationBusy()) return;
    this.assertCanTrain();
    if (this.run?.done) return;
    // Never resume the loop under a chain-view sample: the update would change the weights it reads.
    await this.inspections.settle();
    if (this.iterationBusy()) return;
    this.board.rollbackIteration = undefined;
    const run = this.run ?? await this.lifecycle.openNew();
    if (!run) return;
    this.control.go(steps, () => this.lifecycle.run(run, this.slot.store!));
    this.board.set('running');
  }

  /** Returns once paused: between iterations, or at the next decision or minibatch inside one, where the run is saved. */
  async pause(): Promise<void> {
    if (this.phase === 'running') await this.lifecycle.pause(() => this.phase === 'running');
  }

  async stepOnce(): Promise<void> {
    if (this.phase === 'running') return this.pause();
    await this.train(1);
    await this.control.settled();
  }

  async stop(): Promise<void> {
    if (this.phase === 'running') await this.pause();
    if (this.run) this.board.set('stopped', `stopped at iteration ${this.run.iteration}`);
  }

  /**
   * Ends the run. One that finished an iteration stays in the Runs list with its newest save, which a
   * reload no longer offers; `announce` says so in one sentence (the queue's resets between runs are quiet).
   */
  async reset(announce = false): Promise<void> {
    await this.stop();
    const runId = this.currentRunId;
    const hadRun = this.hasRun;
    await this.control.abort(new TrainingError('the run was reset'));
    this.episodes.clear();
    const { run, listing } = await this.slot.close();
    if (listing && run && run.iteration > 0) await this.offers.keepOnReset(listing, announce);
    this.board.rollbackIteration = undefined;
    if (hadRun) this.onLoopEnd?.({ kind: 'reset', runId });
    this.emit({ type: 'history', records: [] });
    this.board.set('idle');
  }

  /** Back to this run's newest save with half the actor lr, paused (RunLifecycle.rollBack). */
  async rollBack(): Promise<void> {
    const run = this.run;
    if (this.iterationBusy()) throw new TrainingError('pause the run before rolling it back');
    if (!run || !this.slot.store) throw new TrainingError('there is no run to roll back');
    await this.lifecycle.rollBack(run, this.slot.store);
  }

  /**
   * Restores a saved run where it was saved: the one a reload offers, or a kept run by its Runs-list
   * id; then trains on (one click), unless `train` is false (the queue goes on by itself).
   */
  async resume(runId?: string, train = true): Promise<SavedRunSummary> {
    this.assertNoRun();
    if (train) this.assertCanTrain();
    const saved = runId === undefined ? await autosaves.offered() : await autosaves.ofRun(runId);
    this.assertNoRun();
    const summary = await this.lifecycle.restore(saved);
    if (train) await this.train();
    return summary;
  }

  private assertNoRun(): void {
    if (this.hasRun) throw new TrainingError('a run exists: reset it first (it stays in the Runs list), then resume another');
  }

  /** Train waits while the demos flow is busy. */
  private assertCanTrain(): void {
    const blocked = this.blockedBy?.();
    if (blocked) throw new TrainingError(blocked);
  }

  private iterationBusy(): boolean {
    return this.phase === 'running' || this.phase === 'starting';
  }
}
