/**
 * The Gaussian PPO family (DESIGN.md §14 "Gaussian PPO", §16): CleanRL's tanh MLP actor and critic
 * on normalized observations. It acts through collectGaussianRollout with the running reward
 * scaling, trains on gaussianObjective and evaluates the mean action. Its running observation and
 * reward statistics are its own state: saved with the weights and in the resume state.
 */
import { rewardNormOn } from '../config/reward-norm';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import { ConfigError, CheckpointError, TrainingError } from '../errors';
import { createRng, type Rng } from '../random';
import { computeGae, computeMonteCarlo, computeNStep, withTruncation } from '../rl/advantages';
import type { EvalActor } from '../rl/evaluate';
import type { FamilyCheckpoint } from '../run/family-checkpoint';
import type { CollectedRollout, CollectInputs, FamilyLearner, FamilySnapshot, LoadedPolicy, PolicyFamily, PolicyIo } from '../run/policy-family';
import type { FlowtuneMetadata } from '../checkpoint/metadata';
import { exportGaussianOnnx } from './gaussian-onnx';
import type { RunResumeState } from '../run/run-state';
import { gaussianForward, type GaussianBundle } from './gaussian-bundle';
import { gaussianContents, type GaussianCheckpoint } from './gaussian-checkpoint';
import { GaussianPolicy } from './gaussian-policy';
import { collectGaussianRollout, type GaussianRolloutBuffer } from './gaussian-rollout';
import { gaussianObjective } from './gaussian-update';
import { ObservationScaler } from './observation-scaler';
import { RewardScaler } from './reward-scaler';
import { RunningMeanStd } from './running-mean-std';

const GRPO_REFUSED = 'advantages.type=grpo needs the flow policy; the Gaussian baseline takes gae, mc or nstep';

/** The deterministic Gaussian policy: the mean action of the normalized observation (stats frozen). */
export function gaussianActor(bundle: GaussianBundle): EvalActor {
  return { act: async (stackedObs) => (await gaussianForward(bundle.policy, bundle.obsScaler.normalize(stackedObs))).mean };
}

/** The stochastic Gaussian policy as demos sample it: μ + σ·ε from `rng`, observation stats frozen. */
/** Draws μ + stdScale·σ·ε per observation row (stdScale 1: the policy as trained). */
function gaussianSamplingActor(bundle: GaussianBundle, rng: Rng, stdScale: number): (obs: Float32Array) => Promise<Float32Array> {
  return async (obs) => {
    const { mean, logStd } = await gaussianForward(bundle.policy, bundle.obsScaler.normalize(obs));
    const noise = rng.fillNormal(new Float32Array(mean.length));
    return mean.map((value, index) => value + stdScale * Math.exp(logStd[index % logStd.length]) * noise[index]);
  };
}

/** The live policy of a Gaussian checkpoint, or a fresh one for `config` and the env's sizes. */
export function gaussianBundle(config: RunConfig, obsDim: number, actionDim: number, checkpoint?: GaussianCheckpoint): GaussianBundle {
  if (!checkpoint) {
    const policy = new GaussianPolicy({ kind: 'gaussian', obsDim, actionDim, hidden: config.policy.gaussian_hidden }, config.seed, config.policy.init_log_std);
    return { kind: 'gaussian', policy, obsScaler: new ObservationScaler(new RunningMeanStd(obsDim), config.ppo.norm_clip, config.policy.running_obs_norm) };
  }
  const hidden = checkpoint.options.hidden;
  if (hidden.join(',') !== config.policy.gaussian_hidden.join(',')) {
    throw new ConfigError('policy.gaussian_hidden', `policy.gaussian_hidden=${config.policy.gaussian_hidden.join(',')} contradicts the checkpoint, whose policy has hidden widths ${hidden.join(',')}`);
  }
  return checkpointBundle(checkpoint);
}

/** The live policy a Gaussian checkpoint holds, as it declares it. */
function checkpointBundle(checkpoint: GaussianCheckpoint): GaussianBundle {
  let policy: GaussianPolicy;
  try {
    policy = new GaussianPolicy(checkpoint.options, checkpoint.tensors);
  } catch (error) {
    throw new CheckpointError((error as Error).message);
  }
  return { kind: 'gaussian', policy, obsScaler: new ObservationScaler(checkpoint.obsStats, checkpoint.obsClip, checkpoint.obsNormEnabled) };
}

function advantagesFor(buffer: GaussianRolloutBuffer, config: RunConfig): { advantages: Float32Array; returns: Float32Array } {
  const { advantages } = config;
  const signals = withTruncation(buffer.signals(), advantages.truncation);
  if (advantages.type === 'gae') return computeGae(signals, advantages.gamma, advantages.lambda);
  if (advantages.type === 'mc') return computeMonteCarlo(signals, advantages.gamma);
  if (advantages.type === 'nstep') return computeNStep(signals, advantages.gamma, advantages.n_steps);
  throw new ConfigError('advantages.type', GRPO_REFUSED);
}

function copyStats(stats: RunningMeanStd): RunningMeanStd {
  return RunningMeanStd.fromJSON(stats.toJSON(), stats.dim, 'stats');
}

function setStats(target: RunningMeanStd, source: RunningMeanStd): void {
  target.mean.set(source.mean);
  target.variance.set(source.variance);
  target.count = source.count;
}

/** The running statistics a Gaussian run updates while it acts. */
interface GaussianState {
  obs: RunningMeanStd;
  rewardReturns: Float64Array;
  rewardStats: RunningMeanStd;
}

/** A Gaussian policy: its mean action evaluates and exports; μ + σ·ε samples demos. */
export class LoadedGaussianPolicy implements LoadedPolicy {
  readonly kind = 'gaussian' as const;

  constructor(readonly bundle: GaussianBundle) {}

  get io(): PolicyIo {
    const { obsDim, actionDim } = this.bundle.policy.options;
    return { nObsSteps: 1, obsFrameSize: obsDim, actionDim };
  }

  evalActor(): EvalActor {
    return gaussianActor(this.bundle);
  }

  /** [A] the mean action of a seeded observation in [-1, 1] (the normalized input the actor sees). */
  async probe(_config: RunConfig, seed: number): Promise<Float32Array> {
    const rng = createRng(seed);
    const normalizedObs = Float32Array.from({ length: this.bundle.policy.options.obsDim }, () => 2 * rng.uniform() - 1);
    return (await gaussianForward(this.bundle.policy, normalizedObs)).mean;
  }

  async exportOnnx(metadata: FlowtuneMetadata): Promise<{ bytes: Uint8Array; description: string }> {
    const { obsDim, actionDim } = this.bundle.policy.options;
    return {
      bytes: await exportGaussianOnnx(this.bundle, metadata),
      description: `obs [batch, 1, ${obsDim}] → actions [batch, 1, ${actionDim}] for ${metadata.task}, the Gaussian policy's mean action`,
    };
  }

  samplingActor(rng: Rng, stdScale = 1): (obs: Float32Array) => Promise<Float32Array> {
    return gaussianSamplingActor(this.bundle, rng, stdScale);
  }

  dispose(): void {
    this.bundle.policy.dispose();
  }
}

export class GaussianLearner extends LoadedGaussianPolicy implements FamilyLearner {
  private readonly rewardScaler: RewardScaler;

  constructor(bundle: GaussianBundle, config: RunConfig) {
    super(bundle);
    this.rewardScaler = new RewardScaler(config.num_envs, new RunningMeanStd(1), config.advantages.gamma, config.ppo.norm_clip, rewardNormOn(config));
  }

  namedVariables() {
    return this.bundle.policy.namedVariables();
  }

  checkConfig(config: RunConfig): void {
    if (config.advantages.type === 'grpo') throw new ConfigError('advantages.type', GRPO_REFUSED);
  }

  resetsEachIteration(): boolean {
    return false;
  }

  async collect(inputs: CollectInputs, rng: Rng): Promise<CollectedRollout> {
    const { config } = inputs;
    const { buffer, stats } = await collectGaussianRollout(this.bundle, inputs.env, inputs.history, this.rewardScaler, config, rng, inputs.phases);
    const { advantages, returns } = advantagesFor(buffer, config);
    return {
      objective: gaussianObjective(this.bundle.policy, buffer, advantages, returns, config, inputs.criticOnly),
      values: buffer.values, returns, valueMask: buffer.mask, episodes: stats.episodes, envSteps: stats.envSteps,
      meanNoiseStd: stats.meanStd, rolloutSeconds: stats.rolloutSeconds, metrics: {},
    };
  }

  captureState(): GaussianState {
    return { obs: copyStats(this.bundle.obsScaler.stats), rewardReturns: this.rewardScaler.returns.slice(), rewardStats: copyStats(this.rewardScaler.stats) };
  }

  contents(snapshot: FamilySnapshot) {
    const state = snapshot.state as GaussianState | undefined;
    return gaussianContents({ ...snapshot, bundle: this.bundle, obsStats: state?.obs });
  }

  writeResume(state: RunResumeState, captured?: unknown): void {
    const now = (captured as GaussianState | undefined) ?? this.captureState();
    state.rewardScale = { returns: now.rewardReturns.slice(), stats: now.rewardStats.toJSON() };
  }

  readResume(state: RunResumeState | undefined): void {
    const saved = state?.rewardScale;
    if (!saved || saved.returns.length !== this.rewardScaler.returns.length) return;
    this.rewardScaler.returns.set(saved.returns);
    setStats(this.rewardScaler.stats, RunningMeanStd.fromJSON(saved.stats, 1, 'reward_scale.stats'));
  }

  load(checkpoint: FamilyCheckpoint): undefined {
    if (checkpoint.kind !== 'gaussian') throw new TrainingError(`a Gaussian run cannot load a ${checkpoint.kind} checkpoint`);
    this.bundle.policy.setWeights(checkpoint.tensors);
    setStats(this.bundle.obsScaler.stats, checkpoint.obsStats);
    return undefined;
  }

}

export const GAUSSIAN_FAMILY: PolicyFamily = {
  kind: 'gaussian',
  async learner(config: RunConfig, env: BatchEnv, checkpoint: FamilyCheckpoint | undefined) {
    if (checkpoint && checkpoint.kind !== 'gaussian') throw new TrainingError(`a Gaussian run cannot start from a ${checkpoint.kind} checkpoint`);
    const bundle = gaussianBundle(config, env.obsDim, env.actionDim, checkpoint);
    return { learner: new GaussianLearner(bundle, config), notes: [] };
  },
  loaded(checkpoint: FamilyCheckpoint) {
    if (checkpoint.kind !== 'gaussian') throw new TrainingError(`a ${checkpoint.kind} checkpoint is not a Gaussian policy`);
    return new LoadedGaussianPolicy(checkpointBundle(checkpoint));
  },
};

