/**
 * The trainer worker's side of a run: the selected model, the config of the next run,
 * the loop's phase, pausing, autosave and the inspection jobs. The run itself (state,
 * resume, save, noise changes) is core/run's; this file only hosts it. Pausing takes
 * effect at the next decision or PPO minibatch; weights and optimizer change only when
 * an iteration's update runs, so a pause loses nothing.
 */
import { encodeFlowtune } from '../../src/core/checkpoint/flowtune-file';
import { type PolicyCheckpoint } from '../../src/core/checkpoint/checkpoint-open';
import { exportTfjs } from '../../src/core/checkpoint/tfjs-format';
import { cloneConfig, validateConfig, type NoiseConfig, type RunConfig, type TaskName } from '../../src/core/config';
import { resolveEnvWorkers } from '../../src/core/config/env-workers';
import { TrainingError } from '../../src/core/errors';
import type { MetricRecord } from '../../src/core/metrics/metric-keys';
import { assertConfigFitsCheckpoint } from '../../src/core/run/checkpoint-run-config';
import { openRun, type OpenedRun } from '../../src/core/run/open-run';
import type { Run } from '../../src/core/run/run';
import type { PausePoint } from '../../src/core/run/run-ports';
import type { VectorEnvConfig } from '../../src/core/envs/vector-env-config';
import type { CheckpointFiles, CheckpointInfo, ModelExport, ModelSource, ObsType, RunListing, RunOrigin, RunPhase, RunStatus, SavedRunSummary, TrainerEvent } from '../../src/protocol/trainer-api';
import { forgetRuns, keepRuns, keptListings, runProgress, type StoredListing } from './run-archive';
import { DecisionGate } from './decision-gate';
import { autosaveRun, readAutosave, readOwnAutosave, readRunAutosave, type Autosave } from './run-autosave';
import { moveOffer, readOffer, withdrawOffer } from './autosave-store';
import { isNonfiniteStop, MAX_ROLLBACKS } from '../../src/core/run/run-loop';
import { EpisodeStore } from './episode-store';
import type { FaultInjection } from './fault-injection';
import { InspectionJobs } from './inspection-jobs';
import { checkpointInfo, fetchShipped, shippedCheckpointPath } from './model-source';
import { openCheckpoint, reopenCheckpoint } from '../../src/core/run/open-checkpoint';
import { hardwareCores } from '../env-pool';
import { RestartableEnv } from './restartable-env';

const DEFAULT_AUTOSAVE_EVERY = 5;
const MAX_RESTARTS_PER_STEP = 3;

/** How a run is listed in the Runs tab; a studio run unless the queue labels it. */
export interface RunLabel {
  origin: RunOrigin;
  name?: string;
  group?: string;
  variant?: string;
  seed?: number;
}

/** How the training loop ended: every iteration done, paused (or stopped), or failed with a sentence. */
export type LoopOutcome = ({ kind: 'done' | 'paused' | 'reset' } | { kind: 'error'; message: string }) & { runId?: string };

const clock = (time: number) => new Date(time).toTimeString().slice(0, 5);

/** A checkpoint chosen for the next run: decoded and validated once. */
export interface SelectedModel {
  files: CheckpointFiles;
  info: CheckpointInfo;
  checkpoint: PolicyCheckpoint;
}

/** The model a run was opened from, and the selection it came from (a later drop replaces the selection, not this). */
interface RunModel {
  source: ModelSource;
  selected?: SelectedModel;
}

export class TrainingSession {
  config: RunConfig;
  phase: RunPhase = 'idle';
  selected?: SelectedModel;
  private opened?: OpenedRun;
  private envs: RestartableEnv[] = [];
  private listener?: (event: TrainerEvent) => void;
  private pauseRequested = false;
  private loop?: Promise<void>;
  private message?: string;
  private savedIteration?: number;
  /** The autosaved iteration a rollback would return to, offered after non-finite updates stopped the run. */
  private rollbackIteration?: number;
  private stepsLeft = Infinity;
  private loopActive = false;
  private readonly gate = new DecisionGate();
  /** Where a pause inside an iteration landed. */
  private pausedAt: PausePoint = 'decision';
  /** Chain- and path-view samples: never during an update. */
  readonly inspections = new InspectionJobs(() => this.iterationBusy());
  /** Recorded episodes for the gallery and replay. */
  readonly episodes = new EpisodeStore();
  /** The current run's entry in the Runs list. */
  private listing?: StoredListing;
  /** What the open run started from; the Model panel describes it while the run exists. */
  private runModel?: RunModel;
  /** Why there is no checkpoint to start from, as the task selection found. */
  private freshReason?: string;
  /** The label of the next run opened (the queue sets it). */
  nextRunLabel?: RunLabel;
  /** Why Train must wait (the demos flow is busy); undefined when it need not. */
  blockedBy?: () => string | undefined;
  /** Told each time the training loop ends (the queue advances on it). */
  onLoopEnd?: (outcome: LoopOutcome) => void;

  constructor(config: RunConfig, private readonly faults?: FaultInjection) {
    this.config = config;
  }

  get run(): Run | undefined {
    return this.opened?.run;
  }

  /** A run exists (training, paused, stopped, done or failed) until Reset. */
  get hasRun(): boolean {
    return this.opened !== undefined;
  }

  setListener(listener: ((event: TrainerEvent) => void) | undefined): void {
    this.listener = listener;
  }

  emit(event: TrainerEvent): void {
    this.listener?.(event);
  }

  status(): RunStatus {
    const run = this.run;
    const elapsed = run?.elapsedSeconds() ?? 0;
    const iteration = run?.iteration ?? 0;
    const total = run?.sizes.iterations ?? 0;
    const eta = run && iteration > 0 && run.history.length > 0 ? (elapsed / iteration) * Math.max(0, total - iteration) : undefined;
    return {
      phase: this.phase, task: this.config.task, iteration, totalIterations: total,
      envSteps: run?.envSteps ?? 0, totalEnvSteps: run?.sizes.totalEnvSteps ?? 0, elapsedSeconds: elapsed,
      etaSeconds: eta, message: this.message, savedIteration: this.savedIteration, rollbackIteration: this.rollbackIteration,
      envRestarts: this.envs.reduce((sum, env) => sum + env.restarts, 0),
    };
  }

  private setPhase(phase: RunPhase, message?: string): void {
    this.phase = phase;
    this.message = message;
    this.emit({ type: 'status', status: this.status() });
  }

  /**
   * The config of the next run; its noise fields also reach a live run, through Run.setNoise.
   * A field the selected checkpoint fixes (its architecture, observation or action space) is refused.
   */
  setConfig(config: RunConfig): RunConfig {
    const valid = validateConfig(cloneConfig(config));
    if (this.selected && valid.task === this.selected.checkpoint.metadata.task) assertConfigFitsCheckpoint(valid, this.selected.checkpoint.metadata);
    this.run?.setNoise(valid.noise);
    this.config = valid;
    this.emit({ type: 'config', config: this.config });
    return this.config;
  }

  /** Changes noise fields; a live run reads them when its next rollout starts. */
  setNoise(noise: Partial<NoiseConfig>): RunConfig {
    const next = cloneConfig(this.config);
    Object.assign(next.noise, noise);
    return this.setConfig(next);
  }

  private modelSource(): ModelSource {
    return this.selected ? { kind: 'checkpoint', info: this.selected.info } : { kind: 'fresh', reason: this.freshReason ?? 'no checkpoint selected' };
  }

  /**
   * Tells the page which model Train uses: the open run's own, or with no run the selected one. A
   * model selected while a run exists goes with it as `next`: a run after Reset starts from it.
   */
  private announceModel(): void {
    const selected = this.modelSource();
    if (!this.runModel) {
      this.emit({ type: 'model', model: selected });
      return;
    }
    this.emit({ type: 'model', model: this.runModel.source, next: this.selected !== this.runModel.selected ? selected : undefined });
  }

  /** Notes the model the run now open started from. */
  private markRunModel(): void {
    this.runModel = { source: this.modelSource(), selected: this.selected };
  }

  /**
   * Opens the files completely (core/run openCheckpoint: the checkpoint's architecture and
   * observation become the next run's); only then do they replace the selected model. A run's
   * model stays as it is: the file waits for Reset.
   */
  loadCheckpoint(files: CheckpointFiles): CheckpointInfo {
    const { checkpoint, config } = openCheckpoint(files, this.config);
    const info = checkpointInfo(files, checkpoint);
    this.selected = { files, info, checkpoint };
    this.config = config;
    this.emit({ type: 'config', config });
    this.announceModel();
    return info;
  }

  /** Selects the model and config of a queued run; the files are decoded and checked as a dropped checkpoint is. */
  prepareRun(files: CheckpointFiles | undefined, config: RunConfig): void {
    const valid = validateConfig(cloneConfig(config));
    if (files) {
      const { checkpoint } = openCheckpoint(files, valid);
      assertConfigFitsCheckpoint(valid, checkpoint.metadata);
      this.selected = { files, info: checkpointInfo(files, checkpoint), checkpoint };
    } else {
      this.selected = undefined;
    }
    this.config = valid;
    this.emit({ type: 'config', config: this.config });
    this.announceModel();
  }

  /** Resolves when the training loop (if any) has fully ended. */
  async loopSettled(): Promise<void> {
    await this.loop;
  }

  /** Selects a task and its observation kind, and preselects the shipped checkpoint for both when there is one. */
  async selectTask(task: TaskName, obsType: ObsType): Promise<ModelSource> {
    this.config = validateConfig({ ...cloneConfig(this.config), task, env: { ...this.config.env, obs_type: obsType } });
    this.selected = undefined;
    this.emit({ type: 'config', config: this.config });
    const path = shippedCheckpointPath(task, obsType);
    const variant = obsType === 'pointcloud' ? `${task} (point cloud)` : task;
    let reason = `no shipped checkpoint for ${variant} (${path} is missing): drop one in, or Train starts from a freshly initialized policy`;
    const shipped = await fetchShipped(task, obsType).catch((error: unknown) => {
      reason = `the shipped checkpoint for ${variant} could not be fetched: ${(error as Error).message}`;
      return undefined;
    });
    if (shipped) {
      const files: CheckpointFiles = { kind: 'flowtune', name: shipped.name, bytes: shipped.bytes };
      try {
        this.loadCheckpoint(files);
      } catch (error) {
        reason = `the shipped checkpoint for ${variant} was rejected: ${(error as Error).message}`;
      }
    }
    this.freshReason = reason;
    this.announceModel();
    return this.modelSource();
  }

  private async openEnv(config: VectorEnvConfig, purpose: 'train' | 'eval'): Promise<RestartableEnv> {
    // Training: one env thread per core, as on the command line; this worker waits on every chunk,
    // and the env threads wait on every update, so the cores take turns.
    const workers = purpose === 'train' ? resolveEnvWorkers(this.config.env.workers, config.numEnvs, hardwareCores()) : 1;
    const env = await RestartableEnv.create(config, workers, this.faults?.shardPortOpener(purpose));
    this.envs.push(env);
    return env;
  }

  private async openRun(): Promise<OpenedRun> {
    this.envs = [];
    const opened = await openRun(this.config, this.selected?.checkpoint, {
      openEnv: (config, purpose) => this.openEnv(config, purpose),
      recordEpisodes: true,
      pauseGate: (where) => {
        this.pausedAt = where;
        return this.gate.pass();
      },
    });
    for (const note of opened.notes) this.emit({ type: 'error', name: 'ResumeNote', message: note });
    return opened;
  }

  /** Starts a run, or continues a paused one. */
  async train(stepsLimit = Infinity): Promise<void> {
    if (this.iterationBusy()) return;
    this.assertCanTrain();
    if (this.run?.done) return;
    // Never resume the loop under a chain-view sample: the update would change the weights it reads.
    await this.inspections.settle();
    if (this.iterationBusy()) return;
    this.stepsLeft = stepsLimit;
    if (this.loopActive) {
      // Paused mid-iteration: the waiting decision or minibatch goes on.
      this.pauseRequested = false;
      this.setPhase('running');
      this.gate.open();
      return;
    }
    if (!this.opened) {
      this.setPhase('starting', 'starting env workers…');
      try {
        this.opened = await this.openRun();
      } catch (error) {
        this.fail(error);
        this.onLoopEnd?.({ kind: 'error', message: this.message ?? String(error) });
        return;
      }
      this.emit({ type: 'history', records: [...this.opened.run.history] });
      this.listing = this.newListing(this.opened.run);
      this.savedIteration = undefined;
      this.markRunModel();
      this.announceModel();
      await this.keepCurrentRun();
      // Until its first autosave, the new run is not what a reload offers; a run offered before stays kept.
      await this.moveOfferTo(undefined);
    }
    this.pauseRequested = false;
    this.rollbackIteration = undefined;
    this.gate.open();
    this.setPhase('running');
    this.loop = this.runLoop(this.opened.run);
  }

  private async stepWithRecovery(run: Run): Promise<MetricRecord> {
    for (let attempt = 0; ; attempt++) {
      try {
        this.faults?.beforeStep();
        return await run.step();
      } catch (error) {
        if ((error as Error).name !== 'EnvRestartedError' || attempt >= MAX_RESTARTS_PER_STEP) throw error;
        // New env workers start from fresh resets; the weights are those from before the failed iteration.
        run.restartEpisodes();
        this.emit({ type: 'status', status: this.status() });
      }
    }
  }

  private async runLoop(run: Run): Promise<void> {
    this.loopActive = true;
    let resumeAfter = false;
    try {
      while (!this.pauseRequested && this.stepsLeft > 0 && !run.done) {
        const record = await this.stepWithRecovery(run);
        this.stepsLeft--;
        this.emit({ type: 'metrics', record });
        this.emit({ type: 'status', status: this.status() });
        this.storeEpisodes(run, record);
        await this.inspections.runQueued();
        // Every 5 iterations, or more often when checkpoint_every asks for it.
        const every = run.config.checkpoint_every > 0 ? Math.min(run.config.checkpoint_every, DEFAULT_AUTOSAVE_EVERY) : DEFAULT_AUTOSAVE_EVERY;
        if (run.iteration % every === 0) await this.autosave();
      }
      if (this.run !== run) return;
      await this.autosave();
      if (run.done) this.setPhase('done', `finished ${run.iteration} iterations`);
      else this.setPhase('paused', `paused at iteration ${run.iteration}`);
      this.onLoopEnd?.({ kind: run.done ? 'done' : 'paused', runId: this.currentRunId });
    } catch (error) {
      if (this.run === run) {
        const rollbackFrom = isNonfiniteStop(error) && run.rollbacks < MAX_ROLLBACKS ? this.ownAutosaveIteration() : undefined;
        if (rollbackFrom !== undefined && run.config.on_nonfinite === 'rollback') {
          // on_nonfinite=rollback: as the command line does, back to the newest save and on.
          resumeAfter = await this.rollBackRun().then(() => true, (failure: unknown) => {
            this.fail(failure);
            return false;
          });
        } else {
          this.rollbackIteration = rollbackFrom;
          this.fail(error);
          this.onLoopEnd?.({ kind: 'error', message: this.message ?? String(error), runId: this.currentRunId });
        }
      }
    } finally {
      this.loopActive = false;
      await this.inspections.runQueued();
    }
    if (resumeAfter) await this.train();
  }

  /** Keeps the iteration's finished episodes (and its eval episodes, when it evaluated) and announces them. */
  private storeEpisodes(run: Run, record: MetricRecord): void {
    const evaluated = record['eval/success_rate'] !== undefined;
    const { added, dropped } = this.episodes.add({
      task: run.config.task, iteration: run.iteration,
      train: run.lastEpisodes, eval: evaluated ? run.lastEval?.records : undefined,
    });
    this.emit({ type: 'episodes', episodes: added, dropped });
  }

  private fail(error: unknown): void {
    const named = error as Error;
    const sentence = `${named.name && named.name !== 'Error' ? `${named.name}: ` : ''}${named.message ?? String(error)}`;
    this.setPhase('error', sentence);
    this.emit({ type: 'error', name: named.name ?? 'Error', message: named.message ?? String(error) });
  }

  /** Returns once paused: between iterations, or at the next decision or minibatch inside one. */
  async pause(): Promise<void> {
    if (this.phase !== 'running') return;
    this.pauseRequested = true;
    this.pausedAt = 'decision';
    this.gate.close();
    await Promise.race([this.loop, this.gate.blocked()]);
    if (this.loopActive && this.phase === 'running' && this.run) {
      await this.autosave();
      this.setPhase('paused', `paused at iteration ${this.run.iteration}, mid-${(this.pausedAt as PausePoint) === 'minibatch' ? 'update' : 'rollout'}`);
      await this.inspections.runQueued();
    }
  }

  async stepOnce(): Promise<void> {
    if (this.phase === 'running') return this.pause();
    await this.train(1);
    await this.loop;
  }

  async stop(): Promise<void> {
    if (this.phase === 'running') await this.pause();
    if (this.run) this.setPhase('stopped', `stopped at iteration ${this.run.iteration}`);
  }

  /**
   * Ends the run. One that finished an iteration stays in the Runs list with its newest save, which a
   * reload no longer offers; `announce` says so in one sentence (the queue's resets between runs are quiet).
   */
  async reset(announce = false): Promise<void> {
    await this.stop();
    const runId = this.currentRunId;
    const listing = this.listing;
    const opened = this.opened;
    this.opened = undefined;
    if (this.gate.closed) {
      this.gate.abort(new TrainingError('the run was reset'));
      await this.loop;
    }
    this.pauseRequested = false;
    this.episodes.clear();
    await opened?.close();
    this.envs = [];
    await this.releaseListing(opened?.run);
    if (listing && opened && opened.run.iteration > 0) await this.keepOnReset(listing, announce);
    this.savedIteration = undefined;
    this.rollbackIteration = undefined;
    if (this.runModel) {
      this.runModel = undefined;
      this.announceModel();
    }
    if (opened) this.onLoopEnd?.({ kind: 'reset', runId });
    this.emit({ type: 'history', records: [] });
    this.setPhase('idle');
  }

  /** A reset run is kept, not offered: a reload after Reset offers nothing to resume. */
  private async keepOnReset(listing: StoredListing, announce: boolean): Promise<void> {
    try {
      await withdrawOffer(listing.id);
    } catch (error) {
      this.emit({ type: 'error', name: 'AutosaveError', message: `the reset run is kept, but a reload may still offer it: ${(error as Error).message}` });
    }
    if (!announce) return;
    this.emit({
      type: 'notice',
      message: listing.savedIteration === undefined
        ? `${listing.name} is kept in the Runs list with its metrics; it saved no weights, so it cannot be resumed`
        : `${listing.name} is kept in the Runs list with its weights from iteration ${listing.savedIteration}: resume it there`,
    });
  }

  async exportModel(): Promise<ModelExport> {
    const run = this.run;
    if (!run) throw new TrainingError('there is no run to export yet: press Train first');
    const contents = await run.contents();
    const { modelJson, weightsBin } = exportTfjs(contents, { weightsFileName: 'model.weights.bin' });
    return { flowtune: encodeFlowtune(contents), modelJson, weightsBin, baseName: `${run.config.task}-ppo-it${run.iteration}` };
  }

  /**
   * Saves the run (weights, optimizer, env and RNG states, history) under its own id, replacing only
   * its own older save; a failed save is reported but never stops the run.
   */
  async autosave(): Promise<void> {
    const run = this.run;
    if (!run || run.iteration === 0) return;
    try {
      const saved = await autosaveRun(run, this.currentListing(run));
      if (this.run === run) {
        this.listing = saved.listing;
        this.savedIteration = saved.summary.iteration;
      }
    } catch (error) {
      this.emit({ type: 'error', name: 'AutosaveError', message: `autosave failed: ${(error as Error).message}` });
    }
    await this.keepCurrentRun();
  }

  /** A new run's entry: the queue's label, or "task HH:MM". */
  private newListing(run: Run): StoredListing {
    const label = this.nextRunLabel ?? { origin: 'studio' };
    this.nextRunLabel = undefined;
    const now = Date.now();
    return {
      id: `${label.origin}-${now}-${Math.floor(Math.random() * 1e6)}`, name: label.name ?? `${run.config.task} ${clock(now)}`,
      origin: label.origin, task: run.config.task, group: label.group, variant: label.variant, seed: label.seed ?? run.config.seed,
      ...runProgress(run.config, run.history), createdAt: now, updatedAt: now,
    };
  }

  /** The entry with the run's progress now. */
  private currentListing(run: Run): StoredListing {
    this.listing = { ...(this.listing ?? this.newListing(run)), ...runProgress(run.config, run.history), updatedAt: Date.now() };
    return this.listing;
  }

  /** Writes the current run into the Runs list (config and metrics) and announces the list; a failure is reported, never fatal. */
  private async keepCurrentRun(): Promise<void> {
    const run = this.run;
    if (!run) return;
    try {
      await keepRuns([{ listing: this.currentListing(run), config: cloneConfig(run.config), records: run.history }]);
      await this.announceRuns();
    } catch (error) {
      this.emit({ type: 'error', name: 'RunListError', message: `the run could not be kept in the Runs list: ${(error as Error).message}` });
    }
  }

  /** Drops the run's entry when it never finished an iteration; otherwise it stays as a past run. */
  private async releaseListing(run: Run | undefined): Promise<void> {
    const listing = this.listing;
    this.listing = undefined;
    if (!listing) return;
    try {
      if (!run || run.iteration === 0) await forgetRuns([listing.id], undefined);
      await this.announceRuns();
    } catch (error) {
      this.emit({ type: 'error', name: 'RunListError', message: `the Runs list could not be updated: ${(error as Error).message}` });
    }
  }

  /** Every kept run, the current one marked. */
  async runListings(): Promise<RunListing[]> {
    const current = this.listing?.id;
    return (await keptListings()).map((listing) => ({ ...listing, current: listing.id === current }));
  }

  /** The current run's id in the Runs list. */
  get currentRunId(): string | undefined {
    return this.listing?.id;
  }

  async announceRuns(): Promise<void> {
    this.emit({ type: 'runs', runs: await this.runListings() });
  }

  /** The iteration of this run's newest save. */
  private ownAutosaveIteration(): number | undefined {
    return this.listing?.savedIteration;
  }

  /** Back to this run's newest autosave with half the actor lr (Run.rollBack), paused; the metrics after it are dropped. */
  async rollBack(): Promise<void> {
    if (this.iterationBusy()) throw new TrainingError('pause the run before rolling it back');
    await this.rollBackRun();
  }

  /** The rollback itself; the loop calls it directly while its failed iteration unwinds (on_nonfinite=rollback). */
  private async rollBackRun(): Promise<void> {
    const run = this.run;
    if (!run) throw new TrainingError('there is no run to roll back');
    if (run.rollbacks >= MAX_ROLLBACKS) throw new TrainingError(`the run already rolled back ${MAX_ROLLBACKS} times`);
    const saved = this.listing && await readOwnAutosave(this.listing.id);
    if (!saved) throw new TrainingError('this run has not autosaved yet, so it has no saved point to roll back to');
    const note = await run.rollBack(reopenCheckpoint(saved.files, run.config));
    this.rollbackIteration = undefined;
    this.config = cloneConfig(run.config);
    this.emit({ type: 'config', config: this.config });
    this.emit({ type: 'history', records: [...run.history] });
    if (note) this.emit({ type: 'error', name: 'ResumeNote', message: note });
    await this.keepCurrentRun();
    this.setPhase('paused', `non-finite updates: rolled back to iteration ${run.iteration} with actor_lr ${run.config.actor_lr} (rollback ${run.rollbacks} of at most ${MAX_ROLLBACKS})`);
  }

  /** The run a reload offers to resume, unless it is the open one; null when there is none. */
  async offeredRun(): Promise<SavedRunSummary | null> {
    const offer = await readOffer();
    return offer && offer.runId !== this.listing?.id ? { ...offer.summary, name: offer.name } : null;
  }

  /** Tells the page what the resume banner offers now. */
  async announceOffer(): Promise<void> {
    this.emit({ type: 'saved-run', saved: await this.offeredRun().catch(() => null) });
  }

  /**
   * Points a reload's offer at this run (none: the run has not saved yet). A run offered before is
   * not touched: it stays in the Runs list with its weights, and the page is told so in one sentence.
   */
  private async moveOfferTo(runId: string | undefined): Promise<void> {
    try {
      const before = await moveOffer(runId);
      if (before) this.emit({ type: 'notice', message: `the saved run ${before.name} from iteration ${before.summary.iteration} is kept in the Runs list with its weights: resume it there` });
    } catch (error) {
      this.emit({ type: 'error', name: 'AutosaveError', message: `the resume offer could not be updated (every saved run is still kept): ${(error as Error).message}` });
    }
    await this.announceOffer();
  }

  /** Withdraws the reload's offer; the run stays in the Runs list with its weights. */
  async keepSaved(): Promise<void> {
    const offer = await readOffer();
    if (offer && offer.runId !== this.listing?.id) {
      await withdrawOffer(offer.runId);
      this.emit({ type: 'notice', message: `the saved run ${offer.name} from iteration ${offer.summary.iteration} is kept in the Runs list with its weights: resume it there` });
    }
    await this.announceOffer();
  }

  /** Deletes the offered run with its weights, config and metrics (as its Runs-list row's delete does). */
  async discardSaved(): Promise<void> {
    const offer = await readOffer();
    if (offer && offer.runId !== this.listing?.id) {
      await forgetRuns([offer.runId], this.currentRunId);
      this.emit({ type: 'notice', message: `the saved run ${offer.name} from iteration ${offer.summary.iteration} was deleted` });
      await this.announceRuns();
    }
    await this.announceOffer();
  }

  /** Restores the offered run where it was saved, paused (the queue goes on from here by itself). */
  async restoreSaved(): Promise<SavedRunSummary> {
    return this.restore(await readAutosave());
  }

  /** Restores the offered run and trains on: one click on the banner. */
  async resumeSaved(): Promise<SavedRunSummary> {
    this.assertCanTrain();
    const summary = await this.restoreSaved();
    await this.train();
    return summary;
  }

  /** Restores a kept run from its own save and trains on; refused while another run exists. */
  async resumeRun(runId: string): Promise<void> {
    if (this.opened) throw new TrainingError('a run exists: reset it first (it stays in the Runs list), then resume another');
    this.assertCanTrain();
    await this.restore(await readRunAutosave(runId));
    await this.train();
  }

  /**
   * Reopens a saved run exactly where it was saved; its save becomes what a reload offers. If the run
   * cannot be opened, the selection and config stay as they were and the save is untouched.
   */
  private async restore(saved: Autosave): Promise<SavedRunSummary> {
    if (this.opened) throw new TrainingError('a run exists: reset it first (it stays in the Runs list), then resume another');
    const { files } = saved;
    const checkpoint = reopenCheckpoint(files, saved.config);
    const before = { config: this.config, selected: this.selected };
    this.config = saved.config;
    this.selected = { files, info: checkpointInfo(files, checkpoint), checkpoint };
    this.setPhase('starting', `restoring ${saved.listing.name} at iteration ${saved.summary.iteration}…`);
    try {
      this.opened = await this.openRun();
    } catch (error) {
      this.config = before.config;
      this.selected = before.selected;
      this.setPhase('idle');
      throw error;
    }
    const run = this.opened.run;
    this.listing = saved.listing;
    this.savedIteration = saved.summary.iteration;
    this.markRunModel();
    await this.moveOfferTo(saved.listing.id);
    await this.keepCurrentRun();
    this.emit({ type: 'config', config: this.config });
    this.announceModel();
    this.emit({ type: 'history', records: [...run.history] });
    if (run.done) this.setPhase('done', `finished ${run.iteration} iterations`);
    else this.setPhase('paused', `resumed ${saved.listing.name} at iteration ${saved.summary.iteration}`);
    return saved.summary;
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
