import * as tf from '@tensorflow/tfjs';
import { dense, type ParamLookup } from './layers';
import type { FlowPolicyOptions, ReflowLayout } from './options';
import { torchActivation, torchMlp, type TorchMlpLayout } from './torch-mlp';
import type { VelocityOutput } from './velocity-mlp';

/**
 * ReinFlow's FlowMLP (model/flow/mlp_flow.py) and ShortCutFlowMLP (model/flow/mlp_shortcut.py) in our conventions (DESIGN.md §18). ReinFlow runs time s from noise
 * (s = 0) to data (s = 1) and predicts v = data − noise; we run t from noise (t = 1) to action (t = 0) and predict
 * noise − action. So s = 1 − t and our velocity is minus its output; the weights are ReinFlow's as they are.
 */

/** Frequencies of the peers' SinusoidalPosEmb: f_j = exp(−ln(10000)·j/(half − 1)), j = 0..half−1. */
export function reflowFrequencies(dim: number): number[] {
  const half = dim / 2;
  return Array.from({ length: half }, (_, j) => Math.exp((-Math.log(10000) * j) / (half - 1)));
}

/** s [B] → [B, dim]: [sin(s·f_j) | cos(s·f_j)] (no time scale, unlike policy/time-embedding.ts). */
export function reflowSinusoid(s: tf.Tensor1D, dim: number): tf.Tensor2D {
  return tf.tidy(() => {
    const angles = tf.mul(tf.reshape(s, [-1, 1]), tf.tensor2d(reflowFrequencies(dim), [1, dim / 2]));
    return tf.concat([tf.sin(angles), tf.cos(angles)], 1) as tf.Tensor2D;
  });
}

/**
 * The time embedding, Linear → Mish → Linear on sinusoids of s = 1 − t: FlowMLP's time_embedding (dim → 2·dim → dim);
 * with `shortcut`, ShortCutFlowMLP's t_emb on [sinusoid(s) | sinusoid(d)] (2·dim → dim → dim). t, d [B] → [B, dim].
 */
export function reflowTimeEmbedding(param: ParamLookup, options: FlowPolicyOptions, t: tf.Tensor1D, stepSize: tf.Tensor1D): tf.Tensor2D {
  return tf.tidy(() => {
    // DPPO's DiffusionMLP (prediction epsilon) embeds its integer denoising step as it is.
    const time = reflowSinusoid(options.prediction === 'epsilon' ? t : (tf.sub(1, t) as tf.Tensor1D), options.timeEmbedDim);
    const sinusoid = options.shortcut ? tf.concat([time, reflowSinusoid(stepSize, options.timeEmbedDim)], 1) : time;
    return dense(param, 'velocity.time.1', torchActivation('Mish', dense(param, 'velocity.time.0', sinusoid))) as tf.Tensor2D;
  });
}

/** Widths of the time embedding's two Linear layers: [in, hidden, out]. */
export function reflowTimeWidths(options: FlowPolicyOptions): [number, number, number] {
  const dim = options.timeEmbedDim;
  return options.shortcut ? [2 * dim, dim, dim] : [dim, 2 * dim, dim];
}

/** Width of what the velocity head reads besides x_t: [emb | features] for FlowMLP; the combined embedding for ShortCut. */
function conditionWidth(options: FlowPolicyOptions, featureDim: number): number {
  if (!options.shortcut) return options.timeEmbedDim + featureDim;
  return (options.reflow as ReflowLayout).combination === 'concate' ? options.timeEmbedDim + featureDim : options.timeEmbedDim;
}

/** ShortCutFlowMLP's emb: time-and-step embedding + cond, · cond, or [emb | cond]; FlowMLP's [emb | cond]. */
function condition(options: FlowPolicyOptions, embedding: tf.Tensor2D, features: tf.Tensor2D): tf.Tensor {
  if (!options.shortcut) return tf.concat([embedding, features], 1);
  const combination = (options.reflow as ReflowLayout).combination;
  if (combination === 'add') return tf.add(embedding, features);
  if (combination === 'multiply') return tf.mul(embedding, features);
  return tf.concat([embedding, features], 1);
}

/** The velocity head's layout (FlowMLP's mlp_mean, ShortCut's vel_head): [x_t | condition] → hidden → H·A. */
export function reflowVelocityLayout(options: FlowPolicyOptions, featureDim: number): TorchMlpLayout {
  const layout = options.reflow as ReflowLayout;
  const actionSize = options.horizon * options.actionDim;
  return {
    dims: [actionSize + conditionWidth(options, featureDim), ...options.velocityHidden, actionSize],
    activation: layout.activation,
    residual: layout.residual,
    layerNorm: layout.layerNorm,
  };
}

/** xFlat [B, H·A], t and d [B], features [B, F] (the cond embedding) → our velocity (minus the peer's) and the head's last hidden. */
export function velocityReflow(param: ParamLookup, options: FlowPolicyOptions, xFlat: tf.Tensor2D, t: tf.Tensor1D, stepSize: tf.Tensor1D, features: tf.Tensor2D): VelocityOutput {
  return tf.tidy(() => {
    const input = tf.concat([xFlat, condition(options, reflowTimeEmbedding(param, options, t, stepSize), features)], 1);
    const { output, hidden } = torchMlp(param, 'velocity.mlp', reflowVelocityLayout(options, features.shape[1]), input);
    return { velocity: (options.prediction === 'epsilon' ? output : tf.neg(output)) as tf.Tensor2D, hidden: hidden as tf.Tensor2D };
  });
}
