/**
 * The trainer worker's side of a run: the selected model, the config of the next run,
 * the loop's phase, pausing, autosave and the inspection jobs. The run itself (state,
 * resume, save, noise changes) is core/run's; this file only hosts it. Pausing takes
 * effect at the next decision or PPO minibatch; weights and optimizer change only when
 * an iteration's update runs, so a pause loses nothing.
 */
import { encodeFlowtune } from '../../src/core/checkpoint/flowtune-file';
import { configFromCheckpoint, type PolicyCheckpoint } from '../../src/core/checkpoint/policy-checkpoint';
import { exportTfjs } from '../../src/core/checkpoint/tfjs-format';
import { cloneConfig, diffConfig, fieldGroup, validateConfig, type NoiseConfig, type RunConfig, type TaskName } from '../../src/core/config';
import { resolveEnvWorkers } from '../../src/core/config/env-workers';
import { CheckpointError, TrainingError } from '../../src/core/errors';
import type { MetricRecord } from '../../src/core/metrics/metric-keys';
import { assertConfigFitsCheckpoint } from '../../src/core/run/checkpoint-run-config';
import { openRun, type OpenedRun } from '../../src/core/run/open-run';
import type { Run } from '../../src/core/run/run';
import type { PausePoint } from '../../src/core/run/run-ports';
import type { VectorEnvConfig } from '../../src/core/envs/vector-env-config';
import type { CheckpointFiles, CheckpointInfo, ModelExport, ModelSource, ObsType, RunListing, RunOrigin, RunPhase, RunStatus, SavedRunSummary, TrainerEvent } from '../../src/protocol/trainer-api';
import { forgetRuns, keepRuns, keptListings, runProgress, type StoredListing } from './run-archive';
import { DecisionGate } from './decision-gate';
import { autosaveRun, readAutosave } from './run-autosave';
import { readSavedRun } from './autosave-store';
import { isNonfiniteStop, MAX_ROLLBACKS } from '../../src/core/run/run-loop';
import { EpisodeStore } from './episode-store';
import type { FaultInjection } from './fault-injection';
import { InspectionJobs } from './inspection-jobs';
import { checkpointInfo, declaredObservation, decodeFiles, fetchShipped, shippedCheckpointPath, type EnvObservation } from './model-source';
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

function envObservation(config: RunConfig): EnvObservation {
  return config.env.obs_type === 'pointcloud' ? { obsType: 'pointcloud', numPoints: config.env.num_points } : { obsType: 'state' };
}

function observationText(observation: EnvObservation): string {
  return observation.obsType === 'pointcloud' ? `point clouds of ${observation.numPoints} points` : 'state observations';
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

  /**
   * Changes noise fields; a live run reads them when its next rollout starts. Noise fields never
   * conflict with a checkpoint, and each config the change lands in is validated once: a live run
   * validates its own, which is the next run's config too unless other fields were edited since.
   */
  setNoise(noise: Partial<NoiseConfig>): RunConfig {
    const next: RunConfig = { ...this.config, noise: { ...this.config.noise, ...noise } };
    const run = this.run;
    if (!run || diffConfig(run.config, this.config).some((change) => fieldGroup(change.key) !== 'noise')) validateConfig(next);
    run?.setNoise(next.noise);
    this.config = next;
    this.emit({ type: 'config', config: next });
    return next;
  }

  private modelSource(reason?: string): ModelSource {
    return this.selected ? { kind: 'checkpoint', info: this.selected.info } : { kind: 'fresh', reason: reason ?? 'no checkpoint selected' };
  }

  /**
   * Validates the files completely; only then do they replace the selected model. With no run the
   * env is not built yet, so the studio takes the checkpoint's observation kind; a run's env stays.
   */
  loadCheckpoint(files: CheckpointFiles): CheckpointInfo {
    const declared = declaredObservation(files);
    if (this.phase !== 'idle' && declared && declared.obsType !== this.config.env.obs_type) {
      throw new CheckpointError(`checkpoint is for ${observationText(declared)}, but the current run's env gives ${observationText(envObservation(this.config))}: reset the run to load it`);
    }
    return this.select(files, this.phase === 'idle' ? declared : undefined);
  }

  /** Decodes against the task's env observing `observation` (the config's by default), then selects the model. */
  private select(files: CheckpointFiles, observation?: EnvObservation): CheckpointInfo {
    const checkpoint = decodeFiles(files, this.config.task, this.config, observation);
    const info = checkpointInfo(files, checkpoint);
    const config = validateConfig(configFromCheckpoint(this.config, checkpoint.metadata));
    this.selected = { files, info, checkpoint };
    this.config = config;
    this.emit({ type: 'config', config });
    this.emit({ type: 'model', model: this.modelSource() });
    return info;
  }

  /** Selects the model and config of a queued run; the files are decoded and checked as a dropped checkpoint is. */
  prepareRun(files: CheckpointFiles | undefined, config: RunConfig): void {
    const valid = validateConfig(cloneConfig(config));
    if (files) {
      const checkpoint = decodeFiles(files, valid.task, valid);
      assertConfigFitsCheckpoint(valid, checkpoint.metadata);
      this.selected = { files, info: checkpointInfo(files, checkpoint), checkpoint };
    } else {
      this.selected = undefined;
    }
    this.config = valid;
    this.emit({ type: 'config', config: this.config });
    this.emit({ type: 'model', model: this.modelSource() });
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
      // The picker chose the observation kind; the shipped file decides its point count.
      const declared = declaredObservation(files);
      try {
        this.select(files, declared?.obsType === obsType ? declared : undefined);
      } catch (error) {
        reason = `the shipped checkpoint for ${variant} was rejected: ${(error as Error).message}`;
      }
    }
    const model = this.modelSource(reason);
    this.emit({ type: 'model', model });
    return model;
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
    const blocked = this.blockedBy?.();
    if (blocked) throw new TrainingError(blocked);
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
      await this.keepCurrentRun();
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
        const rollbackFrom = isNonfiniteStop(error) && run.rollbacks < MAX_ROLLBACKS ? await this.ownAutosaveIteration() : undefined;
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

  async reset(): Promise<void> {
    await this.stop();
    const runId = this.currentRunId;
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
    if (opened) this.onLoopEnd?.({ kind: 'reset', runId });
    this.emit({ type: 'history', records: [] });
    this.setPhase('idle');
  }

  async exportModel(): Promise<ModelExport> {
    const run = this.run;
    if (!run) throw new TrainingError('there is no run to export yet: press Train first');
    const contents = await run.contents();
    const { modelJson, weightsBin } = exportTfjs(contents, { weightsFileName: 'model.weights.bin' });
    return { flowtune: encodeFlowtune(contents), modelJson, weightsBin, baseName: `${run.config.task}-ppo-it${run.iteration}` };
  }

  /** Saves the run (weights, optimizer, env and RNG states, history); a failed save is reported but never stops the run. */
  async autosave(): Promise<void> {
    const run = this.run;
    if (!run || run.iteration === 0) return;
    try {
      this.savedIteration = (await autosaveRun(run, this.currentListing(run))).iteration;
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

  /** The iteration of the newest autosave when it is this run's. */
  private async ownAutosaveIteration(): Promise<number | undefined> {
    const saved = await readSavedRun().catch(() => null);
    return saved && saved.runId !== undefined && saved.runId === this.listing?.id ? saved.summary.iteration : undefined;
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
    const saved = await readAutosave();
    if (saved.listing?.id === undefined || saved.listing.id !== this.listing?.id) {
      throw new TrainingError('the autosave belongs to another run, so this run has no saved point to roll back to');
    }
    const note = await run.rollBack(decodeFiles(saved.files, run.config.task, run.config));
    this.rollbackIteration = undefined;
    this.config = cloneConfig(run.config);
    this.emit({ type: 'config', config: this.config });
    this.emit({ type: 'history', records: [...run.history] });
    if (note) this.emit({ type: 'error', name: 'ResumeNote', message: note });
    await this.keepCurrentRun();
    this.setPhase('paused', `non-finite updates: rolled back to iteration ${run.iteration} with actor_lr ${run.config.actor_lr} (rollback ${run.rollbacks} of at most ${MAX_ROLLBACKS})`);
  }

  /** Reopens the autosaved run exactly where it was saved. */
  async resumeSaved(): Promise<SavedRunSummary> {
    const saved = await readAutosave();
    await this.reset();
    this.config = saved.config;
    const { files } = saved;
    const checkpoint = decodeFiles(files, this.config.task, this.config);
    this.selected = { files, info: checkpointInfo(files, checkpoint), checkpoint };
    this.setPhase('starting', 'restoring the autosaved run…');
    try {
      this.opened = await this.openRun();
    } catch (error) {
      this.fail(error);
      throw error;
    }
    this.savedIteration = saved.summary.iteration;
    this.listing = saved.listing ?? this.newListing(this.opened.run);
    await this.keepCurrentRun();
    this.emit({ type: 'config', config: this.config });
    this.emit({ type: 'model', model: this.modelSource() });
    this.emit({ type: 'history', records: [...this.opened.run.history] });
    this.setPhase('paused', `resumed the autosave at iteration ${saved.summary.iteration}`);
    return saved.summary;
  }

  private iterationBusy(): boolean {
    return this.phase === 'running' || this.phase === 'starting';
  }
}
