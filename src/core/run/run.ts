/**
 * One training run, whatever hosts it and whatever policy family it trains (DESIGN.md §2 "The
 * run layer", §16): the family's live policy, its envs, both optimizers, the counters, the metric
 * history and the config in force. The CLI, the studio's trainer worker and sweep workers all
 * drive this object through trainLoop. Its state at every iteration boundary can be saved and
 * restored exactly; the family plugs in acting, its update objective and its own state.
 */
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import type { RunProgress } from '../checkpoint/checkpoint-types';
import type { CheckpointStage } from '../checkpoint/metadata';
import type { CheckpointFiles } from '../checkpoint/checkpoint-file';
import { cloneConfig } from '../config/access';
import { freezeDeep, frozenConfig } from '../config/frozen-config';
import { deriveSizes, type DerivedSizes } from '../config/derive';
import type { NoiseConfig, RunConfig } from '../config/run-config';
import { validateConfig } from '../config/validate';
import type { BatchEnv } from '../envs/batch-env';
import type { EpisodeRecord } from '../envs/task-env';
import type { VectorEnvMetrics } from '../envs/vector-env';
import { ConfigError, TrainingError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import type { PolicyBundle } from '../policy/policy-bundle';
import { createRng } from '../random';
import { NamedAdam } from '../rl/adam';
import { evalSeeds, evalSummaryNumbers, evaluateActor, type EvalSummary, type EvalSummaryNumbers } from '../rl/evaluate';
import { adaptKlScale } from '../rl/kl-adaptive-lr';
import { learningRateAt } from '../rl/lr-schedule';
import { historyFor, type ObsHistory } from '../rl/obs-history';
import { PhaseTimes } from '../rl/phase-times';
import { ppoEpochs } from '../rl/ppo-epochs';
import { iterationRng, lrSchedule, trainSeeds } from '../rl/ppo-iteration';
import { iterationMetrics } from './iteration-metrics';
import { withLiveSettings, type LiveSettings } from './live-settings';
import type { FamilyCheckpoint } from './family-checkpoint';
import { reopenCheckpoint } from './open-checkpoint';
import type { FamilyLearner, FamilyState } from './policy-family';
import { decodeResumeState, encodeResumeState } from './resume-codec';
import { rolloutStateKey } from './run-env-config';
import type { RolloutResumeState, RunResumeState } from './run-state';

export interface RunParts {
  learner: FamilyLearner;
  /** Training envs: `num_envs` of them. */
  env: BatchEnv;
  /** Evaluation envs, one per eval episode; evaluation is skipped without them. */
  evalEnv?: BatchEnv;
  config: RunConfig;
  clock?: () => number;
  /** Awaited before each PPO minibatch: a host's pause point inside an update. */
  beforeMinibatch?: () => Promise<void>;
  /**
   * The host may save while an iteration runs (a pause): keep the env state where each
   * iteration starts. Hosts that save only between iterations skip that copy.
   */
  savesMidIteration?: boolean;
}

/** Where an iteration started: the env side and the family's own state, for a save made during it. */
interface Boundary {
  rollout?: RolloutResumeState;
  family: FamilyState;
}

export class Run {
  readonly sizes: DerivedSizes;
  readonly history: MetricRecord[] = [];
  iteration = 0;
  envSteps = 0;
  lastEval?: EvalSummary;
  /** Training episodes that finished during the last iteration (qpos kept when the env records them). */
  lastEpisodes: readonly EpisodeRecord[] = [];
  /** Rollbacks after non-finite updates so far (logged as train/rollbacks once there is one). */
  rollbacks = 0;
  private configInForce: RunConfig;
  private readonly actorOptimizer: NamedAdam;
  private readonly criticOptimizer: NamedAdam;
  private readonly clock: () => number;
  private readonly skipStreak = { current: 0 };
  private obsHistory?: ObsHistory;
  private envMetrics?: VectorEnvMetrics;
  /** Where the current iteration started, for a save made during it. */
  private boundary?: Boundary;
  /** An iteration is under way: its rollout has moved the envs past the saved counters. */
  private midIteration = false;
  private restoredEval?: EvalSummaryNumbers;
  private startedAt?: number;
  private elapsedBefore = 0;
  /** ppo.kl_adapt's actor-lr scale, carried from update to update. */
  private klScale = 1;

  constructor(private readonly parts: RunParts) {
    const { config, learner } = parts;
    if (config.policy.kind !== learner.kind) throw new ConfigError('policy.kind', `policy.kind=${config.policy.kind}, but the run's policy is a ${learner.kind} policy`);
    learner.checkConfig(config);
    if (parts.env.numEnvs !== config.num_envs) {
      throw new ConfigError('num_envs', `the env batch has ${parts.env.numEnvs} envs but num_envs is ${config.num_envs}`);
    }
    this.configInForce = frozenConfig(config);
    this.sizes = deriveSizes(config);
    const adam = () => new NamedAdam({ beta1: 0.9, beta2: 0.999, epsilon: config.ppo.adam_eps, weightDecay: config.ppo.optimizer === 'adamw' ? config.ppo.weight_decay : 0 });
    this.actorOptimizer = adam();
    this.criticOptimizer = adam();
    this.clock = parts.clock ?? (() => performance.now());
  }

  /** The config in force (frozen): live fields (noise, DPPO's std floor) change only through setLive(), actor_lr only through a rollback. */
  get config(): RunConfig {
    return this.configInForce;
  }

  get learner(): FamilyLearner {
    return this.parts.learner;
  }

  /** The flow policy's bundle, for the chain views; a run of another family has none. */
  get bundle(): PolicyBundle {
    const learner = this.parts.learner as FamilyLearner & { bundle?: PolicyBundle };
    if (learner.kind !== 'flow' || !learner.bundle) throw new TrainingError(`a ${learner.kind} policy has no denoising chain to sample or inspect`);
    return learner.bundle;
  }

  get env(): BatchEnv {
    return this.parts.env;
  }

  get done(): boolean {
    return this.iteration >= this.sizes.iterations;
  }

  /** Noise settings, in force from the next rollout (setLive with the noise section only). */
  setNoise(noise: Partial<NoiseConfig>): RunConfig {
    return this.setLive({ noise });
  }

  /**
   * The only live change to a run: noise settings and DPPO's sampling std floor (live-settings.ts), in force from the
   * next rollout. A value the config or the family refuses changes nothing.
   */
  setLive(settings: LiveSettings): RunConfig {
    // Only the live fields are new; the other sections are the frozen ones already in force.
    const next = withLiveSettings(this.configInForce, settings);
    this.parts.learner.checkConfig(next);
    this.configInForce = freezeDeep(validateConfig(next));
    return this.configInForce;
  }

  private async ensureStarted(): Promise<ObsHistory> {
    if (this.obsHistory && !this.parts.learner.resetsEachIteration(this.config)) return this.obsHistory;
    const { env } = this.parts;
    const history = historyFor(env, this.config.policy.n_obs_steps);
    history.reset(await env.reset(trainSeeds(this.config, env.numEnvs, this.iteration)), env.images?.());
    await env.drainEpisodes();
    this.envMetrics = await env.metrics();
    this.obsHistory = history;
    return history;
  }

  /** Env-side state now, at an iteration boundary; rollouts that reset every iteration keep none. */
  private async captureRollout(): Promise<RolloutResumeState | undefined> {
    if (!this.obsHistory || this.parts.learner.resetsEachIteration(this.config)) return undefined;
    return { envKey: rolloutStateKey(this.config), env: await this.parts.env.snapshot(), obsHistory: this.obsHistory.snapshot() };
  }

  private lrAt(baseLr: number): number {
    return learningRateAt(lrSchedule(this.config, baseLr, this.sizes.totalEnvSteps), this.envSteps);
  }

  /** One iteration: the family's rollout, the PPO update, metrics (and an evaluation when due). */
  async step(): Promise<MetricRecord> {
    const config = this.config;
    const { learner, env } = this.parts;
    this.startedAt ??= this.clock();
    const history = await this.ensureStarted();
    if (this.parts.savesMidIteration) this.boundary = { rollout: await this.captureRollout(), family: learner.captureState() };
    this.midIteration = true;
    const phases = new PhaseTimes(this.clock);
    const criticOnly = this.envSteps < config.ppo.critic_warmup_steps;
    let record: MetricRecord;
    try {
      const rollout = await learner.collect({ env, history, config, envStepsBefore: this.envSteps, iteration: this.iteration, phases, criticOnly }, iterationRng(config, this.iteration, 1));
      const actorLr = criticOnly ? 0 : this.lrAt(config.actor_lr) * this.klScale;
      const criticLr = this.lrAt(config.critic_lr);
      const updateStarted = this.clock();
      const update = await ppoEpochs({
        objective: rollout.objective, config, actorOptimizer: this.actorOptimizer, criticOptimizer: this.criticOptimizer, actorLr, criticLr, criticOnly,
        rng: iterationRng(config, this.iteration, 2), skipStreak: this.skipStreak, beforeMinibatch: this.parts.beforeMinibatch, phases,
      });
      const updateSeconds = (this.clock() - updateStarted) / 1000;
      const envBefore = this.envMetrics!;
      const envAfter = await env.metrics();
      this.iteration++;
      this.envSteps += rollout.envSteps;
      this.lastEpisodes = rollout.episodes;
      this.envMetrics = envAfter;
      if (actorLr > 0) this.klScale = adaptKlScale(this.klScale, update.metrics['losses/approx_kl'] as number | undefined, config.ppo.kl_adapt);
      record = {
        'progress/iteration': this.iteration,
        'progress/env_steps': this.envSteps,
        'progress/wall_s': this.elapsedSeconds(),
        ...iterationMetrics({ config, rollout, update: update.metrics, actorLr, criticLr, updateSeconds, envBefore, envAfter, actionDim: env.actionDim, phases }),
      };
    } finally {
      this.midIteration = false;
    }
    this.boundary = undefined;
    if (this.rollbacks > 0) record['train/rollbacks'] = this.rollbacks;
    if (this.parts.evalEnv && config.eval.every > 0 && (this.iteration % config.eval.every === 0 || this.done)) {
      const summary = await this.evaluate();
      if (summary.successRate !== undefined) record['eval/success_rate'] = summary.successRate;
      record['eval/episode_return'] = summary.meanReturn;
      record['eval/episode_length'] = summary.meanLength;
    }
    this.history.push(record);
    return record;
  }

  /** The family's deterministic policy on the fixed eval seeds with the current weights. */
  async evaluate(): Promise<EvalSummary> {
    const evalEnv = this.parts.evalEnv;
    if (!evalEnv) throw new ConfigError('eval_episodes', 'this run has no evaluation envs; set eval_episodes above 0');
    // A fixed stream: the same weights always see the same x_0, so eval curves move only with the weights.
    this.lastEval = await evaluateActor(this.parts.learner.evalActor(this.config), evalEnv, this.config, evalSeeds(this.config, evalEnv.numEnvs), createRng(this.config.eval.seed));
    this.restoredEval = undefined;
    return this.lastEval;
  }

  /** The last evaluation's numbers, also when it happened before a resume. */
  evalSummary(): EvalSummaryNumbers | undefined {
    return this.lastEval ? evalSummaryNumbers(this.lastEval) : this.restoredEval;
  }

  /** [nObsSteps·obsDim] raw stacked observation the next decision of env `envIndex` sees; undefined before the first rollout. */
  stackedObs(envIndex: number): Float32Array | undefined {
    return this.obsHistory?.envStacked(envIndex);
  }

  /** [cameras × size × size × channels] the camera images the next decision of env `envIndex` sees; undefined without image observations or before the first rollout. */
  stackedImages(envIndex: number): Uint8Array | undefined {
    return this.obsHistory?.envImages(envIndex);
  }

  elapsedSeconds(): number {
    return this.elapsedBefore + (this.startedAt === undefined ? 0 : (this.clock() - this.startedAt) / 1000);
  }

  async progress(): Promise<RunProgress> {
    return { iteration: this.iteration, envSteps: this.envSteps, actor: await this.actorOptimizer.getState(), critic: await this.criticOptimizer.getState() };
  }

  /** Between iterations the state now; during one (a pause), where it started, which matches the weights and counters. */
  private async savedPoint(): Promise<Boundary | undefined> {
    if (this.midIteration && !this.boundary && this.obsHistory && !this.parts.learner.resetsEachIteration(this.config)) {
      throw new TrainingError('this run was opened without savesMidIteration, so it can be saved only between iterations');
    }
    return this.midIteration ? this.boundary : undefined;
  }

  /** What a resume needs beyond weights and moments (RunResumeState), at the point savedPoint picks. */
  async resumeState(): Promise<RunResumeState> {
    const point = await this.savedPoint();
    const rollout = point ? point.rollout : await this.captureRollout();
    const state: RunResumeState = { elapsedSeconds: this.elapsedSeconds(), skipStreak: this.skipStreak.current, history: [...this.history], klScale: this.klScale };
    const lastEval = this.evalSummary();
    if (lastEval) state.lastEval = lastEval;
    if (rollout) state.rollout = rollout;
    this.parts.learner.writeResume(state, point?.family);
    return state;
  }

  /** The run as a checkpoint: weights, normalizers, config, optimizer moments, resume state and the family's own tensors. */
  async contents(stage: CheckpointStage = 'ppo'): Promise<FlowtuneContents> {
    const evalSummary = this.evalSummary();
    const point = await this.savedPoint();
    return this.parts.learner.contents({
      config: this.config, stage, progress: await this.progress(), evalSummary: evalSummary ? { ...evalSummary } : undefined,
      resume: encodeResumeState(await this.resumeState()), state: point?.family,
    });
  }

  /**
   * Continues from a saved point. Returns a sentence when the saved episodes cannot be
   * continued (another env setup, or no env state saved), so the host can say the resume is not exact.
   */
  async restore(progress: RunProgress, state?: RunResumeState): Promise<string | undefined> {
    const variables = this.parts.learner.namedVariables();
    this.actorOptimizer.setState(progress.actor, variables);
    this.criticOptimizer.setState(progress.critic, variables);
    this.iteration = progress.iteration;
    this.envSteps = progress.envSteps;
    this.obsHistory = undefined;
    this.boundary = undefined;
    this.lastEval = undefined;
    this.startedAt = undefined;
    this.history.splice(0, this.history.length, ...(state?.history ?? []));
    this.elapsedBefore = state?.elapsedSeconds ?? Number(this.history.at(-1)?.['progress/wall_s'] ?? 0);
    this.skipStreak.current = state?.skipStreak ?? 0;
    this.klScale = state?.klScale ?? 1;
    this.restoredEval = state?.lastEval;
    this.parts.learner.readResume(state);
    if (this.parts.learner.resetsEachIteration(this.config) || progress.iteration === 0) return undefined;
    const rollout = state?.rollout;
    if (!rollout) return 'the checkpoint holds no env state, so episodes restart from fresh resets and the resume is not exact';
    if (rollout.envKey !== rolloutStateKey(this.config)) {
      return 'the checkpoint\'s env state belongs to other env settings (task, num_envs, env.* or policy.n_obs_steps), so episodes restart from fresh resets and the resume is not exact';
    }
    const { env } = this.parts;
    await env.restore(rollout.env);
    const history = historyFor(env, this.config.policy.n_obs_steps);
    // The current images are the env batch's, saved with its state.
    history.restore(rollout.obsHistory, rollout.env.images);
    this.obsHistory = history;
    this.envMetrics = rollout.env.metrics;
    return undefined;
  }

  /**
   * The second live change to a run (after setLive): back to a checkpoint it saved, with the actor
   * lr scaled, after repeated non-finite updates (config on_nonfinite). Weights, normalizers, moments,
   * counters, history and env state are the checkpoint's; the history after it is dropped.
   */
  async rollBack(checkpoint: FamilyCheckpoint, actorLrScale = 0.5): Promise<string | undefined> {
    if (!checkpoint.progress) throw new TrainingError('the checkpoint to roll back to holds no run progress (optimizer state and counters)');
    const loadNote = this.parts.learner.load(checkpoint);
    const state = checkpoint.metadata.resume ? decodeResumeState(checkpoint.metadata.resume) : undefined;
    const note = await this.restore(checkpoint.progress, state);
    this.rollbacks++;
    this.configInForce = frozenConfig(validateConfig({ ...cloneConfig(this.configInForce), actor_lr: this.configInForce.actor_lr * actorLrScale }));
    return [note, loadNote].filter(Boolean).join('; ') || undefined;
  }

  /** rollBack to a checkpoint file this run saved, decoded for its config. */
  async rollBackTo(files: CheckpointFiles, actorLrScale = 0.5): Promise<string | undefined> {
    return this.rollBack(reopenCheckpoint(files, this.config), actorLrScale);
  }

  /** Puts the run back on fresh episodes (after its env workers were rebuilt). */
  restartEpisodes(): void {
    this.obsHistory = undefined;
    this.boundary = undefined;
  }

  /** Frees the optimizers and the family's policy. */
  dispose(): void {
    this.actorOptimizer.dispose();
    this.criticOptimizer.dispose();
    this.parts.learner.dispose();
  }
}
