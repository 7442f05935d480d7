import * as tf from '@tensorflow/tfjs';
import { ConfigError, ShapeError } from '../errors';

/**
 * DESIGN.md §3 "Log-prob": `token` keeps [B, Ta, Ae], `action` sums over A → [B, Ta], `chunk` sums over Ta×A → [B],
 * `mean` averages over the whole horizon H × Ae → [B] (ReinFlow's state agent: with a joint chain, whose per-element
 * log-prob is already the mean over its K + 1 terms, the chain log-prob divided by (K + 1)·H·A).
 */
export type LogProbType = 'token' | 'action' | 'chunk' | 'mean';
export const LOGPROB_TYPES: readonly LogProbType[] = ['token', 'action', 'chunk', 'mean'];

/** What part of the chunk counts for PPO and how it is reduced. */
export interface LogProbSlice {
  logprobType: LogProbType;
  /** Ta = `n_action_steps` ≤ H: only the executed positions count (except for `mean`, which scores all H). */
  nActionSteps: number;
  /** Ae ≤ A: the env's own action dims. */
  envActionDim: number;
}

/** Throws ConfigError naming the field and its allowed range. */
export function validateLogProbSlice(slice: LogProbSlice, horizon: number, actionDim: number): void {
  if (!LOGPROB_TYPES.includes(slice.logprobType)) {
    throw new ConfigError('logprob_type', `logprob_type must be one of ${LOGPROB_TYPES.join(', ')}, got ${String(slice.logprobType)}`);
  }
  if (!Number.isInteger(slice.nActionSteps) || slice.nActionSteps < 1 || slice.nActionSteps > horizon) {
    throw new ConfigError('policy.n_action_steps', `policy.n_action_steps must be an integer in 1..${horizon} (the horizon), got ${slice.nActionSteps}`);
  }
  if (!Number.isInteger(slice.envActionDim) || slice.envActionDim < 1 || slice.envActionDim > actionDim) {
    throw new ConfigError('envActionDim', `envActionDim must be an integer in 1..${actionDim} (the policy action dim), got ${slice.envActionDim}`);
  }
}

/** The chunk positions a slice scores: the executed Ta, or the whole horizon H for `mean` (ReinFlow scores every predicted action). */
export function scoredPositions(slice: LogProbSlice, horizon: number): number {
  return slice.logprobType === 'mean' ? horizon : slice.nActionSteps;
}

/** perElement [B, H, A] → sliced [B, Ta, Ae] ([B, H, Ae] for mean) → reduced by logprob type. */
export function reduceLogProb(perElement: tf.Tensor, slice: LogProbSlice): tf.Tensor {
  if (perElement.rank !== 3) throw new ShapeError('logProbs', `logProbs must be [B, H, A], got [${perElement.shape.join(', ')}]`);
  const [batch, horizon, actionDim] = perElement.shape;
  validateLogProbSlice(slice, horizon, actionDim);
  return tf.tidy(() => {
    const sliced = tf.slice(perElement, [0, 0, 0], [batch, scoredPositions(slice, horizon), slice.envActionDim]);
    if (slice.logprobType === 'token') return sliced;
    if (slice.logprobType === 'action') return tf.sum(sliced, 2);
    if (slice.logprobType === 'mean') return tf.mean(sliced, [1, 2]);
    return tf.sum(sliced, [1, 2]);
  });
}
