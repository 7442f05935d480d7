/**
 * Running reward scaling per decision (ppo.reward_norm; DPPO's and ReinFlow's `reward_scale_running`): each
 * decision's chunk reward, in time order, through the RewardScaler (r / sqrt(var(G) + 1e-8), clipped to
 * ±ppo.norm_clip, with G ← γ·G + r per env, reset at a done). The rollout's rewards are scaled in place before
 * the advantages; logged episode returns stay in env units. Its state travels with a run's exact resume.
 */
import { rewardNormOn } from '../config/reward-norm';
import type { RunConfig } from '../config/run-config';
import { RewardScaler } from '../gaussian/reward-scaler';
import { RunningMeanStd } from '../gaussian/running-mean-std';
import type { RunResumeState } from '../run/run-state';
import type { RolloutBuffer } from './rollout-buffer';

/** The scaler's state at an iteration boundary. */
export interface DecisionRewardScaleState {
  returns: Float64Array;
  stats: ReturnType<RunningMeanStd['toJSON']>;
}

export class DecisionRewardScale {
  private readonly scaler: RewardScaler;

  constructor(config: RunConfig) {
    const { num_envs: numEnvs, advantages, ppo } = config;
    this.scaler = new RewardScaler(numEnvs, new RunningMeanStd(1), advantages.gamma, ppo.norm_clip, rewardNormOn(config));
  }

  /** Scales `buffer.rewards` [steps × envs] in place, decision by decision. */
  scaleRollout(buffer: Pick<RolloutBuffer, 'shape' | 'rewards' | 'terminated' | 'truncated'>): void {
    if (!this.scaler.enabled) return;
    for (let step = 0; step < buffer.shape.numSteps; step++) {
      const from = step * buffer.shape.numEnvs;
      const to = from + buffer.shape.numEnvs;
      const done = Array.from(buffer.terminated.subarray(from, to), (terminated, envIndex) => terminated || buffer.truncated[from + envIndex]);
      buffer.rewards.set(this.scaler.scale(buffer.rewards.subarray(from, to), done), from);
    }
  }

  capture(): DecisionRewardScaleState {
    return { returns: this.scaler.returns.slice(), stats: this.scaler.stats.toJSON() };
  }

  /** Adds the scaler to a resume state; a run that scales nothing stores nothing. */
  write(state: RunResumeState, captured?: DecisionRewardScaleState): void {
    if (!this.scaler.enabled) return;
    const now = captured ?? this.capture();
    state.rewardScale = { returns: now.returns.slice(), stats: now.stats };
  }

  /** Puts back a resumed run's scaler; a state from another env count (or none) leaves it fresh. */
  read(state: RunResumeState | undefined): void {
    const saved = state?.rewardScale;
    if (!saved || saved.returns.length !== this.scaler.returns.length) return;
    this.scaler.returns.set(saved.returns);
    const stats = RunningMeanStd.fromJSON(saved.stats, 1, 'reward_scale.stats');
    this.scaler.stats.mean.set(stats.mean);
    this.scaler.stats.variance.set(stats.variance);
    this.scaler.stats.count = stats.count;
  }
}
