import type { RunConfig } from '../config/run-config';
import { deriveSizes, type DerivedSizes } from '../config/derive';
import { ConfigError } from '../errors';
import type { EpisodeRecord } from '../envs/task-env';
import type { MetricRecord } from '../metrics/metric-keys';
import { createRng, type Rng } from '../random';
import { NamedAdam, type AdamState } from './adam';
import type { ChunkEnv } from './chunk-env';
import { collectRollout, type RolloutCursor } from './collect-rollout';
import { computeAdvantages } from './compute-advantages';
import { evalSeeds, evaluatePolicy, type EvalSummary } from './evaluate';
import { explainedVariance } from './explained-variance';
import { learningRateAt, type LrSchedule } from './lr-schedule';
import { ObsHistory } from './obs-history';
import type { PolicyBundle } from './policy-bundle';
import { logProbSliceFromConfig, noiseAt, samplerOptionsAt } from './policy-setup';
import { ppoUpdate } from './ppo-update';

/** Everything besides the weights that a resumed run needs to continue exactly where it stopped. */
export interface TrainerProgress {
  iteration: number;
  envSteps: number;
  actor: AdamState;
  critic: AdamState;
}

export interface TrainerParts {
  bundle: PolicyBundle;
  /** Training envs: `num_envs` of them. */
  env: ChunkEnv;
  /** Evaluation envs, one per eval episode; evaluation is skipped without them. */
  evalEnv?: ChunkEnv;
  config: RunConfig;
  /** Milliseconds; injectable for tests. */
  clock?: () => number;
  /** Awaited before each PPO minibatch; the studio pauses there mid-update. */
  beforeMinibatch?: () => Promise<void>;
}

/** Reset seeds of the training envs; GRPO groups of `group_size` envs share one (DESIGN.md §4). */
export function trainSeeds(config: RunConfig, numEnvs: number, iteration: number): number[] {
  const base = (config.seed * 7919 + iteration * 104_729) % 900_000;
  const grpo = config.advantages.type === 'grpo';
  return Array.from({ length: numEnvs }, (_, envIndex) => base + (grpo ? Math.floor(envIndex / config.advantages.group_size) : envIndex));
}

function lrSchedule(config: RunConfig, baseLr: number, totalEnvSteps: number): LrSchedule {
  const totalSteps = Math.max(1, totalEnvSteps, config.ppo.warmup_steps);
  return { kind: config.ppo.lr_schedule, baseLr, finalLr: 0, warmupSteps: config.ppo.warmup_steps, totalSteps };
}

function episodeMetrics(episodes: readonly EpisodeRecord[]): MetricRecord {
  if (episodes.length === 0) return {};
  const mean = (pick: (episode: EpisodeRecord) => number) => episodes.reduce((sum, episode) => sum + pick(episode), 0) / episodes.length;
  return {
    'charts/success_rate': mean((episode) => (episode.success ? 1 : 0)),
    'charts/episode_return': mean((episode) => episode.episodeReturn),
    'charts/episode_length': mean((episode) => episode.length),
  };
}

/**
 * The PPO loop of DESIGN.md §4: each iteration collects a rollout of SMDP decisions,
 * computes advantages, runs epochs × minibatches, logs metrics and evaluates every
 * `eval.every` iterations. The caller owns the bundle and the envs.
 */
export class PpoTrainer {
  readonly config: RunConfig;
  readonly sizes: DerivedSizes;
  readonly history: MetricRecord[] = [];
  iteration = 0;
  envSteps = 0;
  lastEval?: EvalSummary;
  /** Training episodes that finished during the last iteration (qpos kept when the env records them). */
  lastEpisodes: readonly EpisodeRecord[] = [];
  private readonly actorOptimizer: NamedAdam;
  private readonly criticOptimizer: NamedAdam;
  private readonly clock: () => number;
  private readonly skipStreak = { current: 0 };
  private cursor?: RolloutCursor;
  private startedAt?: number;
  private elapsedBefore = 0;
  private lastEnvMetrics = { clippedActions: 0, unstableResets: 0, envSteps: 0 };

  constructor(private readonly parts: TrainerParts) {
    this.config = parts.config;
    if (this.config.noise.method === 'ode') {
      throw new ConfigError('noise.method', "noise.method 'ode' has no exploration noise, so PPO has no log-probs to train; use sde, cps or noise");
    }
    if (parts.env.numEnvs !== this.config.num_envs) {
      throw new ConfigError('num_envs', `the env batch has ${parts.env.numEnvs} envs but num_envs is ${this.config.num_envs}`);
    }
    this.sizes = deriveSizes(this.config);
    const adam = (weightDecay: number) =>
      new NamedAdam({ beta1: 0.9, beta2: 0.999, epsilon: this.config.ppo.adam_eps, weightDecay: this.config.ppo.optimizer === 'adamw' ? weightDecay : 0 });
    this.actorOptimizer = adam(this.config.ppo.weight_decay);
    this.criticOptimizer = adam(this.config.ppo.weight_decay);
    this.clock = parts.clock ?? (() => performance.now());
  }

  get bundle(): PolicyBundle {
    return this.parts.bundle;
  }

  get done(): boolean {
    return this.iteration >= this.sizes.iterations;
  }

  /** The run's RNG for one iteration: a resumed run draws the same noise as an uninterrupted one. */
  private iterationRng(purpose: number): Rng {
    return createRng((this.config.seed * 1_000_003 + this.iteration * 97 + purpose) >>> 0);
  }

  private async ensureStarted(): Promise<RolloutCursor> {
    if (this.cursor && this.config.advantages.type !== 'grpo') return this.cursor;
    const { env } = this.parts;
    const history = new ObsHistory(env.numEnvs, env.obsDim, this.config.policy.n_obs_steps);
    history.reset(await env.reset(trainSeeds(this.config, env.numEnvs, this.iteration)));
    await env.drainEpisodes();
    this.lastEnvMetrics = await env.metrics();
    this.cursor = { history };
    return this.cursor;
  }

  /** One iteration: rollout, advantages, PPO update, metrics (and an evaluation when due). */
  async step(): Promise<MetricRecord> {
    const config = this.config;
    this.startedAt ??= this.clock();
    const cursor = await this.ensureStarted();
    const envStepsBefore = this.envSteps;
    const sampler = samplerOptionsAt(config, envStepsBefore, 'train');
    const slice = logProbSliceFromConfig(config, this.parts.env.actionDim);
    const { buffer, stats } = await collectRollout(this.parts.bundle, this.parts.env, cursor, config, sampler, slice, this.iterationRng(1), this.clock);
    const { advantages, returns } = computeAdvantages(buffer, config.advantages);
    const actorLr = learningRateAt(lrSchedule(config, config.actor_lr, this.sizes.totalEnvSteps), envStepsBefore);
    const criticLr = learningRateAt(lrSchedule(config, config.critic_lr, this.sizes.totalEnvSteps), envStepsBefore);
    const criticOnly = envStepsBefore < config.ppo.critic_warmup_steps;
    const updateStarted = this.clock();
    const update = await ppoUpdate({
      policy: this.parts.bundle.policy, buffer, advantages, returns, sampler, slice, config,
      actorOptimizer: this.actorOptimizer, criticOptimizer: this.criticOptimizer,
      actorLr: criticOnly ? 0 : actorLr, criticLr, criticOnly, rng: this.iterationRng(2), skipStreak: this.skipStreak,
      beforeMinibatch: this.parts.beforeMinibatch,
    });
    const updateSeconds = (this.clock() - updateStarted) / 1000;
    this.iteration++;
    this.envSteps += stats.envSteps;
    this.lastEpisodes = stats.episodes;
    const envMetrics = await this.parts.env.metrics();
    const newEnvSteps = Math.max(1, envMetrics.envSteps - this.lastEnvMetrics.envSteps);
    const record: MetricRecord = {
      'progress/iteration': this.iteration,
      'progress/env_steps': this.envSteps,
      'progress/wall_s': this.elapsedSeconds(),
      ...episodeMetrics(stats.episodes),
      ...update.metrics,
      'losses/explained_variance': explainedVariance(buffer.values, returns, buffer.mask),
      'noise/std': stats.meanNoiseStd,
      'noise/level': noiseAt(config, envStepsBefore).level,
      'train/actor_lr': criticOnly ? 0 : actorLr,
      'train/critic_lr': criticLr,
      'env/clipped_actions': (envMetrics.clippedActions - this.lastEnvMetrics.clippedActions) / (newEnvSteps * this.parts.env.actionDim),
      'env/instability_resets': envMetrics.unstableResets - this.lastEnvMetrics.unstableResets,
      'perf/env_steps_per_s': stats.envSteps / Math.max(stats.rolloutSeconds, 1e-9),
      'perf/rollout_s': stats.rolloutSeconds,
      'perf/update_s': updateSeconds,
    };
    this.lastEnvMetrics = envMetrics;
    if (this.parts.evalEnv && config.eval.every > 0 && (this.iteration % config.eval.every === 0 || this.done)) {
      const summary = await this.evaluate();
      record['eval/success_rate'] = summary.successRate;
      record['eval/episode_return'] = summary.meanReturn;
      record['eval/episode_length'] = summary.meanLength;
    }
    this.history.push(record);
    return record;
  }

  /** Deterministic ODE evaluation on the fixed eval seeds with the current weights. */
  async evaluate(): Promise<EvalSummary> {
    const evalEnv = this.parts.evalEnv;
    if (!evalEnv) throw new ConfigError('eval_episodes', 'this trainer has no evaluation envs; set eval_episodes above 0');
    // A fixed stream: the same weights always see the same x_0, so eval curves move only with the weights.
    this.lastEval = await evaluatePolicy(this.parts.bundle, evalEnv, this.config, evalSeeds(this.config, evalEnv.numEnvs), createRng(this.config.eval.seed));
    return this.lastEval;
  }

  /** [nObsSteps·obsDim] raw stacked observation the next decision of env `envIndex` sees; undefined before the first rollout. */
  stackedObs(envIndex: number): Float32Array | undefined {
    const history = this.cursor?.history;
    if (!history) return undefined;
    const size = history.stackedDim;
    return history.stacked().slice(envIndex * size, (envIndex + 1) * size);
  }

  elapsedSeconds(): number {
    return this.elapsedBefore + (this.startedAt === undefined ? 0 : (this.clock() - this.startedAt) / 1000);
  }

  async progress(): Promise<TrainerProgress> {
    return { iteration: this.iteration, envSteps: this.envSteps, actor: await this.actorOptimizer.getState(), critic: await this.criticOptimizer.getState() };
  }

  /** Continues from a saved point: iteration counter, env steps and both optimizers' moments. */
  restore(progress: TrainerProgress, history: readonly MetricRecord[] = []): void {
    const variables = this.parts.bundle.policy.namedVariables();
    this.actorOptimizer.setState(progress.actor, variables);
    this.criticOptimizer.setState(progress.critic, variables);
    this.iteration = progress.iteration;
    this.envSteps = progress.envSteps;
    this.history.splice(0, this.history.length, ...history);
    this.elapsedBefore = Number(history.at(-1)?.['progress/wall_s'] ?? 0);
    this.cursor = undefined;
  }

  dispose(): void {
    this.actorOptimizer.dispose();
    this.criticOptimizer.dispose();
  }
}
