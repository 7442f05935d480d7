/**
 * The trainer worker's run: owns the PpoTrainer, its env workers and the selected
 * model, runs iterations until paused or done, streams metrics and status, and
 * autosaves. Pausing takes effect at the next decision boundary: the env wrapper
 * awaits a gate before every chunk step, so a rollout can stop mid-way and later
 * continue; between iterations the loop itself stops. Nothing is lost: weights and
 * optimizer only change in the update, after the rollout.
 */
import { configFromCheckpoint } from '../../src/core/checkpoint/policy-checkpoint';
import { cloneConfig, validateConfig, type NoiseConfig, type RunConfig, type TaskName } from '../../src/core/config';
import { ConfigError, TrainingError } from '../../src/core/errors';
import type { MetricRecord } from '../../src/core/metrics/metric-keys';
import type { PolicyBundle } from '../../src/core/rl/policy-bundle';
import { PpoTrainer } from '../../src/core/rl/trainer';
import type { ChainSample, ChainSampleRequest, CheckpointFiles, CheckpointInfo, ModelExport, ModelSource, RunPhase, RunStatus, SavedRunSummary, TrainerEvent } from '../../src/protocol/trainer-api';
import { readSavedRun } from './autosave-store';
import { DecisionGate } from './decision-gate';
import { checkpointInfo, disposeBundle, envDims, fetchShipped, freshBundle, loadFiles } from './model-source';
import { RestartableEnv } from './restartable-env';
import { autosaveRun, exportRun } from './run-files';
import { resolveChainRequest, sampleChainSet, sampleEpisodeChains } from './chain-sampler';
import { IdleChainInputs } from './idle-chain-inputs';
import { EpisodeStore } from './episode-store';

const DEFAULT_AUTOSAVE_EVERY = 5;
const MAX_RESTARTS_PER_STEP = 3;

interface ActiveRun {
  trainer: PpoTrainer;
  bundle: PolicyBundle;
  env: RestartableEnv;
  evalEnv?: RestartableEnv;
}

export class TrainingSession {
  config: RunConfig;
  phase: RunPhase = 'idle';
  selected?: { files: CheckpointFiles; info: CheckpointInfo };
  run?: ActiveRun;
  private listener?: (event: TrainerEvent) => void;
  private pauseRequested = false;
  private loop?: Promise<void>;
  private message?: string;
  private savedIteration?: number;
  private failNextStep = false;
  private stepsLeft = Infinity;
  private loopActive = false;
  private readonly gate = new DecisionGate();
  /** Where a pause inside an iteration landed: at a decision, or between PPO minibatches. */
  private pausedIn: 'rollout' | 'update' = 'rollout';
  /** Chain-view jobs asked for while an iteration runs: they run between iterations. */
  private queuedJobs: (() => Promise<void>)[] = [];
  /** Chain- and path-view samples running outside the loop; a resume waits for all of them. */
  private readonly inspections = new Set<Promise<unknown>>();
  private readonly idleInputs = new IdleChainInputs();
  /** Recorded episodes for the gallery and replay. */
  readonly episodes = new EpisodeStore();

  constructor(config: RunConfig) {
    this.config = config;
  }

  setListener(listener: ((event: TrainerEvent) => void) | undefined): void {
    this.listener = listener;
  }

  emit(event: TrainerEvent): void {
    this.listener?.(event);
  }

  status(): RunStatus {
    const trainer = this.run?.trainer;
    const sizes = trainer?.sizes;
    const elapsed = trainer?.elapsedSeconds() ?? 0;
    const iteration = trainer?.iteration ?? 0;
    const total = sizes?.iterations ?? 0;
    const sessionIterations = trainer ? trainer.history.length : 0;
    const eta = trainer && iteration > 0 && sessionIterations > 0 ? (elapsed / iteration) * Math.max(0, total - iteration) : undefined;
    return {
      phase: this.phase, task: this.config.task, iteration, totalIterations: total,
      envSteps: trainer?.envSteps ?? 0, totalEnvSteps: sizes?.totalEnvSteps ?? 0, elapsedSeconds: elapsed,
      etaSeconds: eta, message: this.message, savedIteration: this.savedIteration,
      envRestarts: (this.run?.env.restarts ?? 0) + (this.run?.evalEnv?.restarts ?? 0),
    };
  }

  private setPhase(phase: RunPhase, message?: string): void {
    this.phase = phase;
    this.message = message;
    this.emit({ type: 'status', status: this.status() });
  }

  /** The config of the next run; noise fields also reach a live run at once. */
  setConfig(config: RunConfig): RunConfig {
    const valid = validateConfig(cloneConfig(config));
    if (this.run && valid.noise.method === 'ode') {
      throw new ConfigError('noise.method', "noise.method 'ode' has no exploration noise, so a running PPO update has no log-probs; use sde, cps or noise while training");
    }
    this.config = valid;
    if (this.run) Object.assign(this.run.trainer.config.noise, valid.noise);
    this.emit({ type: 'config', config: this.config });
    return this.config;
  }

  /** Changes noise fields; the trainer reads them when the next rollout starts. */
  setNoise(noise: Partial<NoiseConfig>): RunConfig {
    const next = cloneConfig(this.config);
    Object.assign(next.noise, noise);
    if (this.run) {
      const live = cloneConfig(this.run.trainer.config);
      Object.assign(live.noise, noise);
      validateConfig(live);
    }
    return this.setConfig(next);
  }

  private modelSource(reason?: string): ModelSource {
    return this.selected ? { kind: 'checkpoint', info: this.selected.info } : { kind: 'fresh', reason: reason ?? 'no checkpoint selected' };
  }

  /** Validates the files completely; only then do they replace the selected model. */
  loadCheckpoint(files: CheckpointFiles): CheckpointInfo {
    const loaded = loadFiles(files, this.config.task, this.config);
    try {
      const info = checkpointInfo(files, loaded);
      const config = validateConfig(configFromCheckpoint(this.config, loaded.metadata));
      this.selected = { files, info };
      this.config = config;
      this.emit({ type: 'config', config });
      this.emit({ type: 'model', model: this.modelSource() });
      return info;
    } finally {
      disposeBundle(loaded.bundle);
    }
  }

  async selectTask(task: TaskName): Promise<ModelSource> {
    this.config = validateConfig({ ...cloneConfig(this.config), task });
    this.selected = undefined;
    this.emit({ type: 'config', config: this.config });
    let reason = `no shipped checkpoint for ${task} (checkpoints/${task}-bc.flowtune is missing): drop one in, or Train starts from a freshly initialized policy`;
    const shipped = await fetchShipped(task).catch((error: unknown) => {
      reason = `the shipped checkpoint for ${task} could not be fetched: ${(error as Error).message}`;
      return undefined;
    });
    if (shipped) {
      try {
        this.loadCheckpoint({ kind: 'flowtune', name: shipped.name, bytes: shipped.bytes });
      } catch (error) {
        reason = `the shipped checkpoint for ${task} was rejected: ${(error as Error).message}`;
      }
    }
    const model = this.modelSource(reason);
    this.emit({ type: 'model', model });
    return model;
  }

  private async buildRun(): Promise<ActiveRun> {
    const config = this.config;
    const dims = envDims(config);
    const envConfig = { task: config.task, obsMode: config.env.obs_type, controlMode: config.env.control_mode, rewardMode: config.env.reward, numPoints: config.env.num_points, maxEpisodeSteps: config.env.max_episode_steps };
    const workers = config.env.workers > 0 ? config.env.workers : undefined;
    const env = await RestartableEnv.create({ ...envConfig, numEnvs: config.num_envs, recordEpisodes: true }, workers, this.gate.pass);
    let bundle: PolicyBundle | undefined;
    let evalEnv: RestartableEnv | undefined;
    try {
      evalEnv = config.eval_episodes > 0 && config.eval.every > 0
        ? await RestartableEnv.create({ ...envConfig, numEnvs: config.eval_episodes, recordEpisodes: true }, 1, this.gate.pass)
        : undefined;
      if (this.selected) {
        bundle = loadFiles(this.selected.files, config.task, config).bundle;
      } else {
        const firstObs = await env.reset(Array.from({ length: env.numEnvs }, (_, envIndex) => config.seed + envIndex));
        bundle = freshBundle(config, firstObs, dims.obsDim, dims.actionDim);
      }
      // The gate also holds between PPO minibatches, so a pause never waits for a whole update.
      const beforeMinibatch = () => {
        this.pausedIn = 'update';
        return this.gate.pass();
      };
      const trainer = new PpoTrainer({ bundle, env, evalEnv, config: cloneConfig(config), beforeMinibatch });
      return { trainer, bundle, env, evalEnv };
    } catch (error) {
      if (bundle) disposeBundle(bundle);
      await env.dispose();
      await evalEnv?.dispose();
      throw error;
    }
  }

  /** Starts a run, or continues a paused one. */
  async train(stepsLimit = Infinity): Promise<void> {
    if (this.phase === 'running' || this.phase === 'starting') return;
    if (this.run?.trainer.done) return;
    // Never resume the loop under a chain-view sample: the update would change the weights it reads.
    while (this.inspections.size > 0) await Promise.allSettled([...this.inspections]);
    if (this.iterationBusy()) return;
    this.stepsLeft = stepsLimit;
    if (this.loopActive) {
      // Paused mid-rollout: the waiting decision goes on.
      this.pauseRequested = false;
      this.setPhase('running');
      this.gate.open();
      return;
    }
    if (!this.run) {
      this.setPhase('starting', 'starting env workers…');
      try {
        this.run = await this.buildRun();
      } catch (error) {
        this.fail(error);
        return;
      }
      this.emit({ type: 'history', records: [] });
    }
    this.pauseRequested = false;
    this.gate.open();
    this.setPhase('running');
    this.loop = this.runLoop();
  }

  private async stepWithRecovery(run: ActiveRun): Promise<MetricRecord> {
    for (let attempt = 0; ; attempt++) {
      try {
        if (this.failNextStep) {
          this.failNextStep = false;
          throw new TrainingError('the trainer failed on purpose (injected fault)');
        }
        return await run.trainer.step();
      } catch (error) {
        if ((error as Error).name !== 'EnvRestartedError' || attempt >= MAX_RESTARTS_PER_STEP) throw error;
        // New env workers start from fresh resets: restore() drops the rollout cursor so the next step resets.
        run.trainer.restore(await run.trainer.progress(), [...run.trainer.history]);
        this.emit({ type: 'status', status: this.status() });
      }
    }
  }

  private async runLoop(): Promise<void> {
    const run = this.run!;
    this.loopActive = true;
    try {
      while (!this.pauseRequested && this.stepsLeft > 0 && !run.trainer.done) {
        const record = await this.stepWithRecovery(run);
        this.stepsLeft--;
        this.emit({ type: 'metrics', record });
        this.emit({ type: 'status', status: this.status() });
        this.storeEpisodes(run, record);
        await this.runQueuedJobs();
        // Every 5 iterations, or more often when checkpoint_every asks for it.
        const every = this.config.checkpoint_every > 0 ? Math.min(this.config.checkpoint_every, DEFAULT_AUTOSAVE_EVERY) : DEFAULT_AUTOSAVE_EVERY;
        if (run.trainer.iteration % every === 0) await this.autosave();
      }
      if (this.run !== run) return;
      if (run.trainer.done) {
        await this.autosave();
        this.setPhase('done', `finished ${run.trainer.iteration} iterations`);
      } else {
        await this.autosave();
        this.setPhase('paused', `paused at iteration ${run.trainer.iteration}`);
      }
    } catch (error) {
      if (this.run === run) this.fail(error);
    } finally {
      this.loopActive = false;
      await this.runQueuedJobs();
    }
  }

  /** Keeps the iteration's finished episodes (and its eval episodes, when it evaluated) and announces them. */
  private storeEpisodes(run: ActiveRun, record: MetricRecord): void {
    const evaluated = record['eval/success_rate'] !== undefined;
    const episodes = this.episodes.add({
      task: run.trainer.config.task, iteration: run.trainer.iteration,
      train: run.trainer.lastEpisodes, eval: evaluated ? run.trainer.lastEval?.records : undefined,
    });
    this.emit({ type: 'episodes', episodes });
  }

  private fail(error: unknown): void {
    const named = error as Error;
    const sentence = `${named.name && named.name !== 'Error' ? `${named.name}: ` : ''}${named.message ?? String(error)}`;
    this.setPhase('error', sentence);
    this.emit({ type: 'error', name: named.name ?? 'Error', message: named.message ?? String(error) });
  }

  /** Returns once paused: between iterations, or at the next decision inside a rollout. */
  async pause(): Promise<void> {
    if (this.phase !== 'running') return;
    this.pauseRequested = true;
    this.pausedIn = 'rollout';
    this.gate.close();
    await Promise.race([this.loop, this.gate.blocked()]);
    if (this.loopActive && this.phase === 'running' && this.run) {
      await this.autosave();
      this.setPhase('paused', `paused at iteration ${this.run.trainer.iteration}, mid-${this.pausedIn}`);
      await this.runQueuedJobs();
    }
  }

  async stepOnce(): Promise<void> {
    if (this.phase === 'running') return this.pause();
    await this.train(1);
    await this.loop;
  }

  async stop(): Promise<void> {
    if (this.phase === 'running') await this.pause();
    if (this.run) this.setPhase('stopped', `stopped at iteration ${this.run.trainer.iteration}`);
  }

  async reset(): Promise<void> {
    await this.stop();
    const run = this.run;
    this.run = undefined;
    if (this.gate.closed) {
      this.gate.abort(new TrainingError('the run was reset'));
      await this.loop;
    }
    this.pauseRequested = false;
    this.episodes.clear();
    if (run) {
      run.trainer.dispose();
      disposeBundle(run.bundle);
      await run.env.dispose();
      await run.evalEnv?.dispose();
    }
    this.emit({ type: 'history', records: [] });
    this.setPhase('idle');
  }

  async exportModel(): Promise<ModelExport> {
    if (!this.run) throw new TrainingError('there is no run to export yet: press Train first');
    return exportRun(this.run);
  }

  /** Saves weights, optimizer state, history and config; a failed save is reported but never stops the run. */
  async autosave(): Promise<void> {
    const run = this.run;
    if (!run || run.trainer.iteration === 0) return;
    try {
      this.savedIteration = (await autosaveRun(run)).iteration;
    } catch (error) {
      this.emit({ type: 'error', name: 'AutosaveError', message: `autosave failed: ${(error as Error).message}` });
    }
  }

  async resumeSaved(): Promise<SavedRunSummary> {
    const saved = await readSavedRun();
    if (!saved) throw new TrainingError('there is no autosaved run to resume');
    await this.reset();
    this.config = validateConfig(saved.config);
    this.selected = undefined;
    const files: CheckpointFiles = { kind: 'flowtune', name: `autosave (iteration ${saved.summary.iteration})`, bytes: saved.checkpoint };
    const loaded = loadFiles(files, this.config.task, this.config);
    disposeBundle(loaded.bundle);
    this.selected = { files, info: checkpointInfo(files, loaded) };
    this.setPhase('starting', 'restoring the autosaved run…');
    try {
      this.run = await this.buildRun();
    } catch (error) {
      this.fail(error);
      throw error;
    }
    if (loaded.progress) this.run.trainer.restore(loaded.progress, saved.history);
    this.savedIteration = saved.summary.iteration;
    this.emit({ type: 'config', config: this.config });
    this.emit({ type: 'model', model: this.modelSource() });
    this.emit({ type: 'history', records: [...saved.history] });
    this.setPhase('paused', `resumed the autosave at iteration ${saved.summary.iteration}`);
    return saved.summary;
  }

  private iterationBusy(): boolean {
    return this.phase === 'running' || this.phase === 'starting';
  }

  private async runQueuedJobs(): Promise<void> {
    while (this.queuedJobs.length > 0) await this.queuedJobs.shift()!();
  }

  /** Runs `job` now when no iteration is running, else right after the current one. */
  whenNoUpdate<T>(job: () => Promise<T>): Promise<T> {
    if (!this.iterationBusy()) {
      const running = job();
      // Every sample in flight is tracked (the chain and path views may sample at once): a resume waits for all.
      const tracked: Promise<unknown> = running.finally(() => this.inspections.delete(tracked)).catch(() => undefined);
      this.inspections.add(tracked);
      return running;
    }
    return new Promise<T>((resolve, reject) => this.queuedJobs.push(() => job().then(resolve, reject)));
  }

  /**
   * Chains of the current policy for the chain view: the run's weights, noise settings in
   * force and the env's observation in the live rollout; without a run, the selected
   * model on a seeded reset. With `request.episode`, the observation at that step of a
   * stored episode instead. Never overlaps a PPO update.
   */
  sampleChains(request: ChainSampleRequest): Promise<ChainSample> {
    return this.whenNoUpdate(async () => {
      const run = this.run;
      if (run) {
        const config = run.trainer.config;
        const { envIndex, count, seed } = resolveChainRequest(request, run.env.numEnvs);
        if (request.episode) {
          return { ...await sampleEpisodeChains(this.episodes, request.episode, run.bundle, config, run.trainer.envSteps, count, seed), model: 'run' };
        }
        const live = run.trainer.stackedObs(envIndex);
        const obs = live ?? await this.idleInputs.observation(config, envIndex);
        const set = await sampleChainSet(run.bundle, obs, config, run.trainer.envSteps, count, seed);
        return { ...set, envIndex, obsSource: live ? 'rollout' : 'reset', model: 'run' };
      }
      const config = this.config;
      const { envIndex, count, seed } = resolveChainRequest(request, config.num_envs);
      const bundle = await this.idleInputs.bundle(config, this.selected?.files);
      const model = this.selected ? 'selected' : 'fresh';
      if (request.episode) return { ...await sampleEpisodeChains(this.episodes, request.episode, bundle, config, 0, count, seed), model };
      const obs = await this.idleInputs.observation(config, envIndex);
      const set = await sampleChainSet(bundle, obs, config, 0, count, seed);
      return { ...set, envIndex, obsSource: 'reset', model };
    });
  }

  injectTrainerFault(): void {
    this.failNextStep = true;
  }
}
