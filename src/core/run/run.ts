/**
 * One training run, whatever hosts it (DESIGN.md §2 "The run layer"): the policy, its
 * envs, both optimizers, the counters, the metric history and the config in force.
 * The CLI, the studio's trainer worker and sweep workers all drive this object. Its
 * state at every iteration boundary can be saved and restored exactly.
 */
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import type { RunProgress } from '../checkpoint/checkpoint-types';
import type { CheckpointStage } from '../checkpoint/metadata';
import { bundleContents } from '../checkpoint/policy-checkpoint';
import { type CheckpointFiles, type PolicyCheckpoint } from '../checkpoint/checkpoint-open';
import { reopenCheckpoint } from './open-checkpoint';
import { cloneConfig } from '../config/access';
import { deriveSizes, type DerivedSizes } from '../config/derive';
import type { NoiseConfig, RunConfig } from '../config/run-config';
import { validateConfig } from '../config/validate';
import type { BatchEnv } from '../envs/batch-env';
import type { EpisodeRecord } from '../envs/task-env';
import type { VectorEnvMetrics } from '../envs/vector-env';
import { ConfigError, TrainingError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import type { FlowPolicy, WeightEntry } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import { createRng } from '../random';
import { NamedAdam } from '../rl/adam';
import { copyPolicy } from '../rl/bc-reference';
import type { RolloutCursor } from '../rl/collect-rollout';
import { evalSeeds, evalSummaryNumbers, evaluatePolicy, type EvalSummary, type EvalSummaryNumbers } from '../rl/evaluate';
import { ObsHistory } from '../rl/obs-history';
import { adaptKlScale } from '../rl/kl-adaptive-lr';
import { ppoIteration, trainSeeds } from '../rl/ppo-iteration';
import { decodeResumeState, encodeResumeState } from './resume-codec';
import { rolloutStateKey } from './run-env-config';
import type { RolloutResumeState, RunResumeState } from './run-state';

export interface RunParts {
  bundle: PolicyBundle;
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

/** Freezes `value` and every object inside it that is not frozen yet, in place. */
function freezeDeep<T extends object>(value: T): T {
  Object.freeze(value);
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null && !Object.isFrozen(inner)) freezeDeep(inner);
  return value;
}

/** A frozen deep copy, so the caller's object stays theirs. */
function frozen(config: RunConfig): RunConfig {
  return freezeDeep(cloneConfig(config));
}

export class Run {
  readonly sizes: DerivedSizes;
  readonly history: MetricRecord[] = [];
  iteration = 0;
  envSteps = 0;
  lastEval?: EvalSummary;
  /** Training episodes that finished during the last iteration (qpos kept when the env records them). */
  lastEpisodes: readonly EpisodeRecord[] = [];
  private configInForce: RunConfig;
  private readonly actorOptimizer: NamedAdam;
  private readonly criticOptimizer: NamedAdam;
  private readonly clock: () => number;
  private readonly skipStreak = { current: 0 };
  private cursor?: RolloutCursor;
  private envMetrics?: VectorEnvMetrics;
  /** Env-side state where the current iteration started, for a save made during it. */
  private boundary?: RolloutResumeState;
  /** An iteration is under way: its rollout has moved the envs past the saved counters. */
  private midIteration = false;
  private restoredEval?: EvalSummaryNumbers;
  private startedAt?: number;
  private elapsedBefore = 0;
  /** The BC regularizer's frozen reference (ppo.bc_coef > 0): the policy the run started from. */
  private readonly reference?: FlowPolicy;
  /** Rollbacks after non-finite updates so far (logged as train/rollbacks once there is one). */
  rollbacks = 0;
  /** ppo.kl_adapt's actor-lr scale, carried from update to update. */
  private klScale = 1;

  constructor(private readonly parts: RunParts) {
    const config = parts.config;
    if (config.policy.kind !== 'flow') {
      throw new ConfigError('policy.kind', `policy.kind=${config.policy.kind} trains from the command line (npm run train -- preset=gaussian-ppo task=...); this host trains flow policies`);
    }
    if (config.noise.method === 'ode') {
      throw new ConfigError('noise.method', "noise.method 'ode' has no exploration noise, so PPO has no log-probs to train; use sde, cps or noise");
    }
    if (parts.env.numEnvs !== config.num_envs) {
      throw new ConfigError('num_envs', `the env batch has ${parts.env.numEnvs} envs but num_envs is ${config.num_envs}`);
    }
    this.configInForce = frozen(config);
    this.sizes = deriveSizes(config);
    const adam = () => new NamedAdam({ beta1: 0.9, beta2: 0.999, epsilon: config.ppo.adam_eps, weightDecay: config.ppo.optimizer === 'adamw' ? config.ppo.weight_decay : 0 });
    this.actorOptimizer = adam();
    this.criticOptimizer = adam();
    this.clock = parts.clock ?? (() => performance.now());
    if (config.ppo.bc_coef > 0) this.reference = copyPolicy(parts.bundle.policy);
  }

  /** The config in force (frozen): noise fields change only through setNoise(). */
  get config(): RunConfig {
    return this.configInForce;
  }

  get bundle(): PolicyBundle {
    return this.parts.bundle;
  }

  get env(): BatchEnv {
    return this.parts.env;
  }

  get done(): boolean {
    return this.iteration >= this.sizes.iterations;
  }

  /** The only live change to a run: noise settings, in force from the next rollout. */
  setNoise(noise: Partial<NoiseConfig>): RunConfig {
    // Only the noise section is new; the other sections are the frozen ones already in force.
    const next: RunConfig = { ...this.configInForce, noise: { ...this.configInForce.noise, ...noise } };
    if (next.noise.method === 'ode') {
      throw new ConfigError('noise.method', "noise.method 'ode' has no exploration noise, so a running PPO update has no log-probs; use sde, cps or noise while training");
    }
    this.configInForce = freezeDeep(validateConfig(next));
    return this.configInForce;
  }

  private async ensureStarted(): Promise<RolloutCursor> {
    if (this.cursor && this.config.advantages.type !== 'grpo') return this.cursor;
    const { env } = this.parts;
    const history = new ObsHistory(env.numEnvs, env.obsDim, this.config.policy.n_obs_steps);
    history.reset(await env.reset(trainSeeds(this.config, env.numEnvs, this.iteration)));
    await env.drainEpisodes();
    this.envMetrics = await env.metrics();
    this.cursor = { history };
    return this.cursor;
  }

  /** Env-side state now, at an iteration boundary; GRPO rollouts reset, so they keep none. */
  private async captureBoundary(): Promise<RolloutResumeState | undefined> {
    if (!this.cursor || this.config.advantages.type === 'grpo') return undefined;
    return { envKey: rolloutStateKey(this.config), env: await this.parts.env.snapshot(), obsHistory: this.cursor.history.snapshot() };
  }

  /** One iteration: rollout, advantages, PPO update, metrics (and an evaluation when due). */
  async step(): Promise<MetricRecord> {
    const config = this.config;
    this.startedAt ??= this.clock();
    const cursor = await this.ensureStarted();
    if (this.parts.savesMidIteration) this.boundary = await this.captureBoundary();
    this.midIteration = true;
    let result;
    try {
      result = await ppoIteration({
        bundle: this.parts.bundle, env: this.parts.env, config, sizes: this.sizes, cursor, iteration: this.iteration,
        envStepsBefore: this.envSteps, envMetricsBefore: this.envMetrics!, actorOptimizer: this.actorOptimizer,
        criticOptimizer: this.criticOptimizer, skipStreak: this.skipStreak, clock: this.clock, beforeMinibatch: this.parts.beforeMinibatch,
        reference: this.reference, actorLrScale: this.klScale,
      });
    } finally {
      this.midIteration = false;
    }
    this.iteration++;
    this.envSteps += result.envSteps;
    this.lastEpisodes = result.episodes;
    this.envMetrics = result.envMetricsAfter;
    this.boundary = undefined;
    if (Number(result.metrics['train/actor_lr']) > 0) {
      this.klScale = adaptKlScale(this.klScale, result.metrics['losses/approx_kl'] as number | undefined, config.ppo.kl_adapt);
    }
    const record: MetricRecord = {
      'progress/iteration': this.iteration,
      'progress/env_steps': this.envSteps,
      'progress/wall_s': this.elapsedSeconds(),
      ...result.metrics,
    };
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

  /** Deterministic ODE evaluation on the fixed eval seeds with the current weights. */
  async evaluate(): Promise<EvalSummary> {
    const evalEnv = this.parts.evalEnv;
    if (!evalEnv) throw new ConfigError('eval_episodes', 'this run has no evaluation envs; set eval_episodes above 0');
    // A fixed stream: the same weights always see the same x_0, so eval curves move only with the weights.
    this.lastEval = await evaluatePolicy(this.parts.bundle, evalEnv, this.config, evalSeeds(this.config, evalEnv.numEnvs), createRng(this.config.eval.seed));
    this.restoredEval = undefined;
    return this.lastEval;
  }

  /** The last evaluation's numbers, also when it happened before a resume. */
  evalSummary(): EvalSummaryNumbers | undefined {
    return this.lastEval ? evalSummaryNumbers(this.lastEval) : this.restoredEval;
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

  async progress(): Promise<RunProgress> {
    return { iteration: this.iteration, envSteps: this.envSteps, actor: await this.actorOptimizer.getState(), critic: await this.criticOptimizer.getState() };
  }

  /**
   * What a resume needs beyond weights and moments. Between iterations it is the state
   * now; during one (a pause mid-rollout), the state where that iteration started, which
   * matches the weights and counters, since those change only when the iteration ends.
   */
  async resumeState(): Promise<RunResumeState> {
    if (this.midIteration && !this.boundary && this.cursor && this.config.advantages.type !== 'grpo') {
      throw new TrainingError('this run was opened without savesMidIteration, so it can be saved only between iterations');
    }
    const rollout = this.boundary ?? (await this.captureBoundary());
    const state: RunResumeState = { elapsedSeconds: this.elapsedSeconds(), skipStreak: this.skipStreak.current, history: [...this.history], klScale: this.klScale };
    const lastEval = this.evalSummary();
    if (lastEval) state.lastEval = lastEval;
    if (rollout) state.rollout = rollout;
    return state;
  }

  /** The run as a checkpoint: weights, normalizers, config, optimizer moments, resume state and any BC reference. */
  async contents(stage: CheckpointStage = 'ppo'): Promise<FlowtuneContents> {
    const evalSummary = this.evalSummary();
    return bundleContents({
      bundle: this.parts.bundle, task: this.config.task, stage, config: this.config, progress: await this.progress(),
      evalSummary: evalSummary ? { ...evalSummary } : undefined, resume: encodeResumeState(await this.resumeState()),
      reference: this.reference ? await this.reference.getWeights() : undefined,
    });
  }

  /**
   * Puts back the BC reference a resumed run's checkpoint stored, so it regularizes toward the
   * policy the run started from. Without one (the run was saved with ppo.bc_coef=0) the reference
   * stays the weights the run opened with, and the sentence returned says so.
   */
  restoreReference(weights: ReadonlyMap<string, WeightEntry> | undefined): string | undefined {
    if (!this.reference) return undefined;
    if (!weights) return 'the checkpoint holds no BC reference policy, so ppo.bc_coef regularizes toward the weights it resumes from';
    this.reference.setWeights(weights);
    return undefined;
  }

  /**
   * Continues from a saved point. Returns a sentence when the saved episodes cannot be
   * continued (another env setup, or no env state saved), so the host can say the resume is not exact.
   */
  async restore(progress: RunProgress, state?: RunResumeState): Promise<string | undefined> {
    const variables = this.parts.bundle.policy.namedVariables();
    this.actorOptimizer.setState(progress.actor, variables);
    this.criticOptimizer.setState(progress.critic, variables);
    this.iteration = progress.iteration;
    this.envSteps = progress.envSteps;
    this.cursor = undefined;
    this.boundary = undefined;
    this.lastEval = undefined;
    this.startedAt = undefined;
    this.history.splice(0, this.history.length, ...(state?.history ?? []));
    this.elapsedBefore = state?.elapsedSeconds ?? Number(this.history.at(-1)?.['progress/wall_s'] ?? 0);
    this.skipStreak.current = state?.skipStreak ?? 0;
    this.klScale = state?.klScale ?? 1;
    this.restoredEval = state?.lastEval;
    if (this.config.advantages.type === 'grpo' || progress.iteration === 0) return undefined;
    const rollout = state?.rollout;
    if (!rollout) return 'the checkpoint holds no env state, so episodes restart from fresh resets and the resume is not exact';
    if (rollout.envKey !== rolloutStateKey(this.config)) {
      return 'the checkpoint\'s env state belongs to other env settings (task, num_envs, env.* or policy.n_obs_steps), so episodes restart from fresh resets and the resume is not exact';
    }
    const { env } = this.parts;
    await env.restore(rollout.env);
    const history = new ObsHistory(env.numEnvs, env.obsDim, this.config.policy.n_obs_steps);
    history.restore(rollout.obsHistory);
    this.cursor = { history };
    this.envMetrics = rollout.env.metrics;
    return undefined;
  }

  /**
   * The second live change to a run (after setNoise): back to a checkpoint it saved, with the actor
   * lr scaled, after repeated non-finite updates (config on_nonfinite). Weights, moments, counters,
   * history and env state are the checkpoint's; the history after it is dropped.
   */
  async rollBack(checkpoint: PolicyCheckpoint, actorLrScale = 0.5): Promise<string | undefined> {
    if (!checkpoint.progress) throw new TrainingError('the checkpoint to roll back to holds no run progress (optimizer state and counters)');
    this.parts.bundle.policy.setWeights(checkpoint.tensors);
    const state = checkpoint.metadata.resume ? decodeResumeState(checkpoint.metadata.resume) : undefined;
    const note = await this.restore(checkpoint.progress, state);
    this.restoreReference(checkpoint.reference);
    this.rollbacks++;
    this.configInForce = frozen(validateConfig({ ...cloneConfig(this.configInForce), actor_lr: this.configInForce.actor_lr * actorLrScale }));
    return note;
  }

  /** rollBack to a checkpoint file this run saved, decoded for its config. */
  async rollBackTo(files: CheckpointFiles, actorLrScale = 0.5): Promise<string | undefined> {
    return this.rollBack(reopenCheckpoint(files, this.config), actorLrScale);
  }

  /** Puts the run back on fresh episodes (after its env workers were rebuilt). */
  restartEpisodes(): void {
    this.cursor = undefined;
    this.boundary = undefined;
  }

  dispose(): void {
    this.actorOptimizer.dispose();
    this.criticOptimizer.dispose();
    this.reference?.dispose();
  }
}
