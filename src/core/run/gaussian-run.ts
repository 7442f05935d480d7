/**
 * A training run of the Gaussian PPO baseline (DESIGN.md §14 "Gaussian PPO"): the same
 * counters, metrics, evaluation seeds, checkpoints and exact resume as a flow run (Run), with
 * CleanRL's rollout and update. trainLoop drives it like any run.
 */
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import type { CheckpointStage } from '../checkpoint/metadata';
import type { RunProgress } from '../checkpoint/checkpoint-types';
import type { CheckpointFiles } from '../checkpoint/checkpoint-open';
import { deriveSizes, type DerivedSizes } from '../config/derive';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import type { EpisodeRecord } from '../envs/task-env';
import type { VectorEnvMetrics } from '../envs/vector-env';
import { ConfigError, TrainingError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import { createRng, type Rng } from '../random';
import { NamedAdam } from '../rl/adam';
import { computeGae, computeMonteCarlo, computeNStep, withTruncation } from '../rl/advantages';
import { evalSeeds, evalSummaryNumbers, evaluateActor, taskHasSuccess, type EvalActor, type EvalSummary, type EvalSummaryNumbers } from '../rl/evaluate';
import { explainedVariance } from '../rl/explained-variance';
import { learningRateAt } from '../rl/lr-schedule';
import { adaptKlScale } from '../rl/kl-adaptive-lr';
import { ObsHistory } from '../rl/obs-history';
import { PhaseTimes } from '../rl/phase-times';
import { episodeMetrics, iterationRng, lrSchedule, trainSeeds } from '../rl/ppo-iteration';
import { gaussianForward, type GaussianBundle } from '../gaussian/gaussian-bundle';
import { decodeGaussianCheckpoint, gaussianContents } from '../gaussian/gaussian-checkpoint';
import { collectGaussianRollout, type GaussianRolloutBuffer } from '../gaussian/gaussian-rollout';
import { gaussianUpdate } from '../gaussian/gaussian-update';
import { RewardScaler } from '../gaussian/reward-scaler';
import { RunningMeanStd } from '../gaussian/running-mean-std';
import { decodeResumeState, encodeResumeState } from './resume-codec';
import { rolloutStateKey } from './run-env-config';
import type { RolloutResumeState, RunResumeState } from './run-state';

/** The deterministic Gaussian policy: the mean action of the normalized observation (stats frozen). */
export function gaussianActor(bundle: GaussianBundle): EvalActor {
  return { act: async (stackedObs) => (await gaussianForward(bundle.policy, bundle.obsScaler.normalize(stackedObs))).mean };
}

/** The stochastic Gaussian policy as demos sample it: μ + σ·ε from `rng`, observation stats frozen. */
export function gaussianSamplingActor(bundle: GaussianBundle, rng: Rng): (obs: Float32Array) => Promise<Float32Array> {
  return async (obs) => {
    const { mean, logStd } = await gaussianForward(bundle.policy, bundle.obsScaler.normalize(obs));
    const noise = rng.fillNormal(new Float32Array(mean.length));
    return mean.map((value, index) => value + Math.exp(logStd[index % logStd.length]) * noise[index]);
  };
}

function advantagesFor(buffer: GaussianRolloutBuffer, config: RunConfig): { advantages: Float32Array; returns: Float32Array } {
  const { advantages } = config;
  const signals = withTruncation(buffer.signals(), advantages.truncation);
  if (advantages.type === 'gae') return computeGae(signals, advantages.gamma, advantages.lambda);
  if (advantages.type === 'mc') return computeMonteCarlo(signals, advantages.gamma);
  if (advantages.type === 'nstep') return computeNStep(signals, advantages.gamma, advantages.n_steps);
  throw new ConfigError('advantages.type', 'advantages.type=grpo needs the flow policy; the Gaussian baseline takes gae, mc or nstep');
}

export interface GaussianRunParts {
  bundle: GaussianBundle;
  env: BatchEnv;
  evalEnv?: BatchEnv;
  config: RunConfig;
  clock?: () => number;
  beforeMinibatch?: () => Promise<void>;
}

export class GaussianRun {
  readonly sizes: DerivedSizes;
  readonly history: MetricRecord[] = [];
  iteration = 0;
  envSteps = 0;
  rollbacks = 0;
  lastEval?: EvalSummary;
  lastEpisodes: readonly EpisodeRecord[] = [];
  private readonly actorOptimizer: NamedAdam;
  private readonly criticOptimizer: NamedAdam;
  private readonly clock: () => number;
  private readonly skipStreak = { current: 0 };
  private readonly rewardScaler: RewardScaler;
  private history0?: ObsHistory;
  private envMetrics?: VectorEnvMetrics;
  private restoredEval?: EvalSummaryNumbers;
  private startedAt?: number;
  private elapsedBefore = 0;
  private configInForce: RunConfig;
  /** ppo.kl_adapt's actor-lr scale. */
  private klScale = 1;

  constructor(private readonly parts: GaussianRunParts) {
    const { config } = parts;
    if (parts.env.numEnvs !== config.num_envs) throw new ConfigError('num_envs', `the env batch has ${parts.env.numEnvs} envs but num_envs is ${config.num_envs}`);
    if (config.advantages.type === 'grpo') throw new ConfigError('advantages.type', 'advantages.type=grpo needs the flow policy; the Gaussian baseline takes gae, mc or nstep');
    this.configInForce = config;
    this.sizes = deriveSizes(config);
    const adam = () => new NamedAdam({ beta1: 0.9, beta2: 0.999, epsilon: config.ppo.adam_eps, weightDecay: config.ppo.optimizer === 'adamw' ? config.ppo.weight_decay : 0 });
    this.actorOptimizer = adam();
    this.criticOptimizer = adam();
    this.clock = parts.clock ?? (() => performance.now());
    this.rewardScaler = new RewardScaler(config.num_envs, new RunningMeanStd(1), config.advantages.gamma, config.ppo.norm_clip, config.ppo.reward_norm);
  }

  /** The config in force; a rollback halves its actor_lr. */
  get config(): RunConfig {
    return this.configInForce;
  }

  get bundle(): GaussianBundle {
    return this.parts.bundle;
  }

  get env(): BatchEnv {
    return this.parts.env;
  }

  get done(): boolean {
    return this.iteration >= this.sizes.iterations;
  }

  private async ensureStarted(): Promise<ObsHistory> {
    if (this.history0) return this.history0;
    const { env } = this.parts;
    const history = new ObsHistory(env.numEnvs, env.obsDim, 1);
    history.reset(await env.reset(trainSeeds(this.config, env.numEnvs, this.iteration)));
    await env.drainEpisodes();
    this.envMetrics = await env.metrics();
    this.history0 = history;
    return history;
  }

  private lrAt(baseLr: number): number {
    return learningRateAt(lrSchedule(this.config, baseLr, this.sizes.totalEnvSteps), this.envSteps);
  }

  async step(): Promise<MetricRecord> {
    const { config } = this;
    this.startedAt ??= this.clock();
    const history = await this.ensureStarted();
    const phases = new PhaseTimes(this.clock);
    const { buffer, stats } = await collectGaussianRollout(this.parts.bundle, this.parts.env, history, this.rewardScaler, config, iterationRng(config, this.iteration, 1), phases);
    const { advantages, returns } = advantagesFor(buffer, config);
    const criticOnly = this.envSteps < config.ppo.critic_warmup_steps;
    const actorLr = criticOnly ? 0 : this.lrAt(config.actor_lr) * this.klScale;
    const criticLr = this.lrAt(config.critic_lr);
    const updateStarted = this.clock();
    const update = await gaussianUpdate({
      policy: this.parts.bundle.policy, buffer, advantages, returns, config, actorOptimizer: this.actorOptimizer, criticOptimizer: this.criticOptimizer,
      actorLr, criticLr, criticOnly, rng: iterationRng(config, this.iteration, 2), skipStreak: this.skipStreak, beforeMinibatch: this.parts.beforeMinibatch, phases,
    });
    const updateSeconds = (this.clock() - updateStarted) / 1000;
    const after = await this.parts.env.metrics();
    const before = this.envMetrics!;
    const newEnvSteps = Math.max(1, after.envSteps - before.envSteps);
    this.iteration++;
    this.envSteps += stats.envSteps;
    if (!criticOnly) this.klScale = adaptKlScale(this.klScale, update['losses/approx_kl'] as number | undefined, config.ppo.kl_adapt);
    this.lastEpisodes = stats.episodes;
    this.envMetrics = after;
    const record: MetricRecord = {
      'progress/iteration': this.iteration,
      'progress/env_steps': this.envSteps,
      'progress/wall_s': this.elapsedSeconds(),
      ...episodeMetrics(stats.episodes, taskHasSuccess(config.task)),
      ...update,
      'losses/explained_variance': explainedVariance(buffer.values, returns, buffer.mask),
      'noise/std': stats.meanStd,
      'train/actor_lr': actorLr,
      'train/critic_lr': criticLr,
      'env/clipped_actions': (after.clippedActions - before.clippedActions) / (newEnvSteps * this.parts.env.actionDim),
      'env/instability_resets': after.unstableResets - before.unstableResets,
      'perf/env_steps_per_s': stats.envSteps / Math.max(stats.rolloutSeconds, 1e-9),
      'perf/rollout_s': stats.rolloutSeconds,
      'perf/update_s': updateSeconds,
      ...phases.metrics(),
    };
    if (this.parts.evalEnv && config.eval.every > 0 && (this.iteration % config.eval.every === 0 || this.done)) {
      const summary = await this.evaluate();
      if (summary.successRate !== undefined) record['eval/success_rate'] = summary.successRate;
      record['eval/episode_return'] = summary.meanReturn;
      record['eval/episode_length'] = summary.meanLength;
    }
    this.history.push(record);
    return record;
  }

  /** Mean actions on the fixed eval seeds, observation stats frozen. */
  async evaluate(): Promise<EvalSummary> {
    const evalEnv = this.parts.evalEnv;
    if (!evalEnv) throw new ConfigError('eval_episodes', 'this run has no evaluation envs; set eval_episodes above 0');
    this.lastEval = await evaluateActor(gaussianActor(this.parts.bundle), evalEnv, this.config, evalSeeds(this.config, evalEnv.numEnvs), createRng(this.config.eval.seed));
    this.restoredEval = undefined;
    return this.lastEval;
  }

  evalSummary(): EvalSummaryNumbers | undefined {
    return this.lastEval ? evalSummaryNumbers(this.lastEval) : this.restoredEval;
  }

  elapsedSeconds(): number {
    return this.elapsedBefore + (this.startedAt === undefined ? 0 : (this.clock() - this.startedAt) / 1000);
  }

  async progress(): Promise<RunProgress> {
    return { iteration: this.iteration, envSteps: this.envSteps, actor: await this.actorOptimizer.getState(), critic: await this.criticOptimizer.getState() };
  }

  private async resumeState(): Promise<RunResumeState> {
    const state: RunResumeState = {
      elapsedSeconds: this.elapsedSeconds(), skipStreak: this.skipStreak.current, history: [...this.history], klScale: this.klScale,
      rewardScale: { returns: this.rewardScaler.returns.slice(), stats: this.rewardScaler.stats.toJSON() },
    };
    const lastEval = this.evalSummary();
    if (lastEval) state.lastEval = lastEval;
    if (this.history0) {
      const rollout: RolloutResumeState = { envKey: rolloutStateKey(this.config), env: await this.parts.env.snapshot(), obsHistory: this.history0.snapshot() };
      state.rollout = rollout;
    }
    return state;
  }

  async contents(stage: CheckpointStage = 'ppo'): Promise<FlowtuneContents> {
    const evalSummary = this.evalSummary();
    return gaussianContents({
      bundle: this.parts.bundle, config: this.config, stage, progress: await this.progress(),
      evalSummary: evalSummary ? { ...evalSummary } : undefined, resume: encodeResumeState(await this.resumeState()),
    });
  }

  /** Continues from a saved point; returns a sentence when the saved episodes cannot be continued. */
  async restore(progress: RunProgress, state?: RunResumeState): Promise<string | undefined> {
    const variables = this.parts.bundle.policy.namedVariables() as ReadonlyMap<string, import('@tensorflow/tfjs').Variable>;
    this.actorOptimizer.setState(progress.actor, variables);
    this.criticOptimizer.setState(progress.critic, variables);
    this.iteration = progress.iteration;
    this.envSteps = progress.envSteps;
    this.history0 = undefined;
    this.lastEval = undefined;
    this.startedAt = undefined;
    this.history.splice(0, this.history.length, ...(state?.history ?? []));
    this.elapsedBefore = state?.elapsedSeconds ?? Number(this.history.at(-1)?.['progress/wall_s'] ?? 0);
    this.skipStreak.current = state?.skipStreak ?? 0;
    this.klScale = state?.klScale ?? 1;
    this.restoredEval = state?.lastEval;
    if (state?.rewardScale && state.rewardScale.returns.length === this.rewardScaler.returns.length) {
      this.rewardScaler.returns.set(state.rewardScale.returns);
      const stats = RunningMeanStd.fromJSON(state.rewardScale.stats, 1, 'reward_scale.stats');
      this.rewardScaler.stats.mean.set(stats.mean);
      this.rewardScaler.stats.variance.set(stats.variance);
      this.rewardScaler.stats.count = stats.count;
    }
    if (progress.iteration === 0) return undefined;
    const rollout = state?.rollout;
    if (!rollout) return 'the checkpoint holds no env state, so episodes restart from fresh resets and the resume is not exact';
    if (rollout.envKey !== rolloutStateKey(this.config)) {
      return 'the checkpoint\'s env state belongs to other env settings (task, num_envs or env.*), so episodes restart from fresh resets and the resume is not exact';
    }
    const { env } = this.parts;
    await env.restore(rollout.env);
    const history = new ObsHistory(env.numEnvs, env.obsDim, 1);
    history.restore(rollout.obsHistory);
    this.history0 = history;
    this.envMetrics = rollout.env.metrics;
    return undefined;
  }

  /** Back to a checkpoint this run saved, with the actor lr scaled (on_nonfinite=rollback). */
  async rollBackTo(files: CheckpointFiles, actorLrScale = 0.5): Promise<string | undefined> {
    if (files.kind !== 'flowtune') throw new TrainingError('a Gaussian run rolls back to its own .flowtune checkpoints only');
    const { obsDim, actionDim } = this.parts.bundle.policy.options;
    const checkpoint = decodeGaussianCheckpoint(files.bytes, { task: this.config.task, obsDim, actionDim });
    if (!checkpoint.progress) throw new TrainingError('the checkpoint to roll back to holds no run progress (optimizer state and counters)');
    this.parts.bundle.policy.setWeights(checkpoint.tensors);
    const stats = this.parts.bundle.obsScaler.stats;
    stats.mean.set(checkpoint.obsStats.mean);
    stats.variance.set(checkpoint.obsStats.variance);
    stats.count = checkpoint.obsStats.count;
    const note = await this.restore(checkpoint.progress, checkpoint.metadata.resume ? decodeResumeState(checkpoint.metadata.resume) : undefined);
    this.rollbacks++;
    this.configInForce = { ...this.configInForce, actor_lr: this.configInForce.actor_lr * actorLrScale };
    return note;
  }

  dispose(): void {
    this.actorOptimizer.dispose();
    this.criticOptimizer.dispose();
  }
}
