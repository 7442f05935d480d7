/**
 * The Gaussian baseline's reward scaling (CleanRL's NormalizeReward followed by a clip): each env
 * keeps its discounted return G ← γ·G + r (0 again when an episode ends), the running variance
 * of G over all envs and steps is updated with every step's G, and the reward the update sees is
 *   clip(r / sqrt(var(G) + 1e-8), −c, c).
 * Logged episode returns stay in env units.
 */
import { NORM_EPSILON } from './observation-scaler';
import { RunningMeanStd } from './running-mean-std';

export interface RewardScalerJson {
  returns: number[];
  stats: ReturnType<RunningMeanStd['toJSON']>;
}

export class RewardScaler {
  readonly returns: Float64Array;

  constructor(numEnvs: number, readonly stats: RunningMeanStd, readonly gamma: number, readonly clip: number, readonly enabled: boolean) {
    this.returns = new Float64Array(numEnvs);
  }

  /** One step of every env: raw rewards [N] and whether each episode ended → the rewards PPO trains on. */
  scale(rewards: ArrayLike<number>, done: ArrayLike<number>): Float32Array {
    const out = new Float32Array(rewards.length);
    if (!this.enabled) {
      out.set(Array.from(rewards));
      return out;
    }
    for (let envIndex = 0; envIndex < rewards.length; envIndex++) this.returns[envIndex] = this.returns[envIndex] * this.gamma + rewards[envIndex];
    this.stats.update(this.returns, rewards.length);
    const scale = Math.sqrt(this.stats.variance[0] + NORM_EPSILON);
    for (let envIndex = 0; envIndex < rewards.length; envIndex++) {
      out[envIndex] = Math.min(this.clip, Math.max(-this.clip, rewards[envIndex] / scale));
      if (done[envIndex]) this.returns[envIndex] = 0;
    }
    return out;
  }
}
