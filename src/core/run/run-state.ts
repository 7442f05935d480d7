import type { RunningStatsJson } from '../gaussian/running-mean-std';
import type { VectorEnvSnapshot } from '../envs/vector-env';
import type { MetricRecord } from '../metrics/metric-keys';
import type { EvalSummaryNumbers } from '../rl/evaluate';

/** Env-side state at an iteration boundary: where the next rollout starts (absent for GRPO, whose rollouts reset). */
export interface RolloutResumeState {
  /** The env settings the snapshot belongs to; a run with others starts fresh episodes. */
  envKey: string;
  env: VectorEnvSnapshot;
  /** [numEnvs × nObsSteps × obsDim] the observation histories. */
  obsHistory: Float32Array;
}

/**
 * What an exact resume needs beyond weights and optimizer moments (DESIGN.md §6
 * "Resume state"). The iteration RNG streams derive from (seed, iteration), so the
 * only RNG state to keep is the envs' seed streams, inside `rollout.env`.
 */
export interface RunResumeState {
  elapsedSeconds: number;
  /** Non-finite updates skipped in a row so far. */
  skipStreak: number;
  history: MetricRecord[];
  lastEval?: EvalSummaryNumbers;
  rollout?: RolloutResumeState;
  /** ppo.kl_adapt's actor-lr scale; absent means 1. */
  klScale?: number;
  /** Gaussian policy runs: each env's discounted return and the running stats of the reward scaling. */
  rewardScale?: { returns: Float64Array; stats: RunningStatsJson };
}
