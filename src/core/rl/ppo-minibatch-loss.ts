import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import { chainLogProb, type ChainLogProbOptions } from '../flow/chain-logprob';
import type { LogProbSlice } from '../flow/logprob-reduce';
import { odeActions } from '../flow/ode-actions';
import type { SamplerOptions } from '../flow/sampling-options';
import type { FlowPolicy } from '../policy/flow-policy';
import type { Rng } from '../random';
import { drawBcNoise, referenceActions } from './bc-reference';
import { bcRegularizerLoss } from './bc-regularizer';
import { logProbUnitShape } from './collect-rollout';
import { ppoActorLoss, type PpoActorOptions } from './ppo-loss-actor';
import { ppoCriticLoss, type PpoCriticOptions } from './ppo-loss-critic';
import { combinePpoLosses, type PpoLossWeights } from './ppo-loss-total';
import type { RolloutBuffer } from './rollout-buffer';
import { RowTable, type RowValues } from './row-table';
import type { PolicyObs } from '../policy/obs-encoder';

/** One PPO minibatch of M decisions. */
export interface PpoMinibatch {
  /** [M, obsSize] observations, or a frozen encoder's features */
  state: tf.Tensor;
  /** [M, cameras, S, S, C] an image policy's camera images (values 0..255), when the rollout kept them */
  images?: tf.Tensor;
  /** [M, K+1, H, A] stored chains */
  chains: tf.Tensor;
  /** [M, K] 0/1 stochastic-step mask */
  denoise: tf.Tensor;
  /** [M, ...U] log-probs stored at rollout time */
  oldLogProbs: tf.Tensor;
  /** [M] */
  advantages: tf.Tensor;
  /** [M] value targets */
  returns: tf.Tensor;
  /** [M] values stored at rollout time */
  oldValues: tf.Tensor;
}

/**
 * The rollout's decisions with their advantages and returns [T·N], as the row table the
 * minibatches are cut from; its fields gather into a PpoMinibatch.
 */
export function ppoRowTable(buffer: RolloutBuffer, advantages: Float32Array, returns: Float32Array, policy: FlowPolicy, slice: LogProbSlice): RowTable<keyof PpoMinibatch, Record<keyof PpoMinibatch, RowValues>> {
  const { obsSize, denoiseSteps } = buffer.shape;
  const { horizon, actionDim, image } = policy.options;
  const keepsImages = (buffer.shape.imageBytes ?? 0) > 0 && image !== undefined;
  const fields = {
    state: { values: buffer.obs, rowShape: [obsSize] },
    ...(keepsImages ? { images: { values: buffer.images, rowShape: [image.cameras.length, image.size, image.size, image.channels] } } : {}),
    chains: { values: buffer.chains, rowShape: [denoiseSteps + 1, horizon, actionDim] },
    denoise: { values: buffer.denoiseInds, rowShape: [denoiseSteps] },
    oldLogProbs: { values: buffer.oldLogProbs, rowShape: logProbUnitShape(slice) },
    advantages: { values: advantages, rowShape: [] },
    returns: { values: returns, rowShape: [] },
    oldValues: { values: buffer.values, rowShape: [] },
  };
  return new RowTable<keyof PpoMinibatch, Record<keyof PpoMinibatch, RowValues>>(buffer.entries, fields as Record<keyof PpoMinibatch, { values: RowValues; rowShape: number[] }>);
}

/** A minibatch's observation as the policy reads it: stored features, or the state (with its images for an image policy). */
export function minibatchObs(batch: Pick<PpoMinibatch, 'state' | 'images'>, frozenEncoder: boolean): PolicyObs {
  if (frozenEncoder) return { features: batch.state };
  return { state: batch.state, ...(batch.images ? { images: batch.images } : {}) };
}

export const PPO_ACTOR_METRICS = ['losses/policy', 'losses/approx_kl', 'losses/clip_fraction', 'losses/ratio_mean', 'losses/ratio_max'] as const;
/** What one minibatch's loss reports; losses/bc only while the BC regularizer is on. */
export type PpoMinibatchMetric = 'losses/value' | 'losses/entropy' | (typeof PPO_ACTOR_METRICS)[number] | 'losses/bc';

/** Everything the minibatch loss reads from the run's config, fixed for one update. */
export interface PpoMinibatchLossOptions {
  logProb: ChainLogProbOptions;
  actor: PpoActorOptions;
  critic: PpoCriticOptions;
  weights: PpoLossWeights;
  /** Only the critic's loss counts (critic warm-up). */
  criticOnly: boolean;
  /** `state` holds the frozen encoder's features, not observations. */
  frozenEncoder: boolean;
}

export function ppoMinibatchLossOptions(config: RunConfig, sampler: SamplerOptions, slice: LogProbSlice, criticOnly: boolean, frozenEncoder: boolean): PpoMinibatchLossOptions {
  const { ppo } = config;
  return {
    logProb: { ...sampler, ...slice },
    actor: {
      clipLow: ppo.clip_low,
      clipHigh: ppo.clip_high,
      dualClip: ppo.dual_clip > 0 ? ppo.dual_clip : undefined,
      logProbRange: ppo.logprob_clamp ? { min: ppo.logprob_min, max: ppo.logprob_max } : undefined,
    },
    critic: { lossType: ppo.value_loss, huberDelta: ppo.huber_delta, clipRange: ppo.value_clip > 0 ? ppo.value_clip : undefined },
    weights: { valueCoef: ppo.value_coef, entropyCoef: ppo.entropy_coef, bcCoef: ppo.bc_coef },
    criticOnly,
    frozenEncoder,
  };
}

/** The BC regularizer's constants for one minibatch: x_0 [M, H, A] and the reference's ODE chunk [M, H, A] from it. */
export interface BcTarget {
  x0: tf.Tensor3D;
  actions: tf.Tensor3D;
}

/**
 * Draws one x_0 per decision from `rng` and runs the frozen reference on it. Called outside the
 * gradient tape: the reference's chunk is a constant of the loss. The caller disposes both.
 */
export function bcTarget(reference: FlowPolicy, rng: Rng, state: tf.Tensor, options: PpoMinibatchLossOptions, images?: tf.Tensor): BcTarget {
  return tf.tidy(() => {
    const { horizon, actionDim } = reference.options;
    const x0 = drawBcNoise(rng, state.shape[0], horizon, actionDim);
    return { x0, actions: referenceActions(reference, minibatchObs({ state, images }, options.frozenEncoder), x0, options.logProb.steps, options.logProb.denoisedClamp) };
  });
}

/**
 * The PPO objective of one minibatch (DESIGN.md §4): recompute the chains' log-probs and values,
 * then actor + value_coef·critic − entropy_coef·entropy + bc_coef·BC regularizer (ppo.bc_coef,
 * with `target`), or the critic alone. Pure; the caller owns the loss and every metric.
 */
export function ppoMinibatchLoss(
  policy: FlowPolicy,
  batch: PpoMinibatch,
  target: BcTarget | undefined,
  options: PpoMinibatchLossOptions,
): { loss: tf.Scalar; metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> } {
  // With the regularizer on, the features are encoded once for both passes.
  const given = minibatchObs(batch, options.frozenEncoder);
  const obs = target && !options.frozenEncoder ? { features: policy.encode(given) } : given;
  const recomputed = chainLogProb(policy, obs, batch.chains, batch.denoise, options.logProb);
  const actor = ppoActorLoss({ logProbs: recomputed.logProb, oldLogProbs: batch.oldLogProbs, advantages: batch.advantages }, options.actor);
  const critic = ppoCriticLoss({ values: recomputed.values, oldValues: batch.oldValues, returns: batch.returns }, options.critic);
  const entropy = tf.mean(recomputed.entropy) as tf.Scalar;
  const metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> = { 'losses/value': critic.loss, 'losses/entropy': entropy };
  for (const key of PPO_ACTOR_METRICS) metrics[key] = actor.metrics[key];
  const regularizer = target && bcRegularizerLoss(odeActions(policy, obs, target.x0, options.logProb.steps, options.logProb.denoisedClamp), target.actions, options.logProb);
  if (regularizer) metrics['losses/bc'] = regularizer.metrics['losses/bc'];
  const loss = combinePpoLosses(
    options.criticOnly ? { value: critic.loss } : { policy: actor.loss, value: critic.loss, entropy, bc: regularizer?.loss },
    options.weights,
  );
  return { loss, metrics };
}
