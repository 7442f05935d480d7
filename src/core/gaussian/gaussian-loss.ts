/**
 * The Gaussian PPO minibatch objective (CleanRL's ppo_continuous_action, DESIGN.md §14
 * "Gaussian PPO"): advantages normalized within the minibatch,
 *   Â = (A − mean A) / (std A + 1e-8)   (std with Bessel's correction, as torch.std),
 * the clipped ratio loss on log N(a; μ(o), σ), the (clipped) value loss, and
 *   loss = policy + value_coef·value − entropy_coef·entropy.
 * The ratio, clip and value terms are the flow policy's own (ppoActorLoss, ppoCriticLoss).
 */
import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import { ppoActorLoss, type PpoActorOptions } from '../rl/ppo-loss-actor';
import { ppoCriticLoss, type PpoCriticOptions } from '../rl/ppo-loss-critic';
import { combinePpoLosses, type PpoLossWeights } from '../rl/ppo-loss-total';
import { PPO_ACTOR_METRICS, type PpoMinibatchMetric } from '../rl/ppo-minibatch-loss';
import type { GaussianPolicy } from './gaussian-policy';

export interface GaussianMinibatch {
  /** [M, obsDim] normalized observations */
  obs: tf.Tensor;
  /** [M, A] sampled actions */
  actions: tf.Tensor;
  /** [M] */
  oldLogProbs: tf.Tensor;
  /** [M] */
  advantages: tf.Tensor;
  /** [M] value targets */
  returns: tf.Tensor;
  /** [M] */
  oldValues: tf.Tensor;
}

export interface GaussianLossOptions {
  actor: PpoActorOptions;
  critic: PpoCriticOptions;
  weights: PpoLossWeights;
  normalizeAdvantages: boolean;
  criticOnly: boolean;
}

export function gaussianLossOptions(config: RunConfig, criticOnly: boolean): GaussianLossOptions {
  const { ppo } = config;
  return {
    actor: { clipLow: ppo.clip_low, clipHigh: ppo.clip_high, dualClip: ppo.dual_clip > 0 ? ppo.dual_clip : undefined },
    critic: { lossType: ppo.value_loss, huberDelta: ppo.huber_delta, clipRange: ppo.value_clip > 0 ? ppo.value_clip : undefined },
    weights: { valueCoef: ppo.value_coef, entropyCoef: ppo.entropy_coef },
    normalizeAdvantages: config.advantages.normalize,
    criticOnly,
  };
}

/** (A − mean) / (std + 1e-8) with the unbiased std; a single row has std 0 and keeps A − mean = 0. */
export function normalizeMinibatchAdvantages(advantages: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const count = advantages.size;
    const centered = tf.sub(advantages, tf.mean(advantages));
    const std = tf.sqrt(tf.div(tf.sum(tf.square(centered)), Math.max(count - 1, 1)));
    return tf.div(centered, tf.add(std, 1e-8));
  });
}

export function gaussianMinibatchLoss(policy: GaussianPolicy, batch: GaussianMinibatch, options: GaussianLossOptions): { loss: tf.Scalar; metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> } {
  const obs = batch.obs as tf.Tensor2D;
  const { logProb, entropy } = policy.logProb(obs, batch.actions as tf.Tensor2D);
  const advantages = options.normalizeAdvantages ? normalizeMinibatchAdvantages(batch.advantages) : batch.advantages;
  const actor = ppoActorLoss({ logProbs: logProb, oldLogProbs: batch.oldLogProbs, advantages }, options.actor);
  const critic = ppoCriticLoss({ values: policy.value(obs), oldValues: batch.oldValues, returns: batch.returns }, options.critic);
  const meanEntropy = tf.mean(entropy) as tf.Scalar;
  const metrics: Partial<Record<PpoMinibatchMetric, tf.Scalar>> = { 'losses/value': critic.loss, 'losses/entropy': meanEntropy };
  for (const key of PPO_ACTOR_METRICS) metrics[key] = actor.metrics[key];
  const loss = combinePpoLosses(options.criticOnly ? { value: critic.loss } : { policy: actor.loss, value: critic.loss, entropy: meanEntropy }, options.weights);
  return { loss, metrics };
}
