import * as tf from '@tensorflow/tfjs';
import type { ParamLookup } from './layers';
import { boundedStd, type NoiseHeadBounds } from './noise-head';
import type { FlowPolicyOptions, ReflowLayout } from './options';
import { stopGradient } from './stop-gradient';
import { torchMlp, type TorchMlpLayout } from './torch-mlp';
import { reflowTimeEmbedding } from './velocity-reflow';

/**
 * The heads around ReinFlow's FlowMLP (`reflow_mlp`, DESIGN.md §18): its cond_mlp (our encoder), PPOFlow's
 * exploration-noise net and CriticObs, each a peer MLP (policy/torch-mlp.ts) with the layout's activation.
 */

const layoutOf = (options: FlowPolicyOptions): ReflowLayout => options.reflow as ReflowLayout;

/** FlowMLP's optional cond_mlp (`encoder_hidden`): the flattened history → cond embedding, no activation at the end. */
export function reflowEncoderLayout(options: FlowPolicyOptions): TorchMlpLayout | undefined {
  if (options.encoderHidden.length === 0) return undefined;
  return { dims: [options.nObsSteps * options.obsDim, ...options.encoderHidden], activation: layoutOf(options).activation, residual: false, layerNorm: false };
}

/** ExploreNoiseNet's mlp_logvar: [time embedding | cond embedding] → hidden (its own activation) → H·A. */
export function reflowNoiseLayout(options: FlowPolicyOptions): TorchMlpLayout {
  const featureDim = options.encoderHidden.length > 0 ? options.encoderHidden[options.encoderHidden.length - 1] : options.nObsSteps * options.obsDim;
  return {
    dims: [options.timeEmbedDim + featureDim, ...options.noiseHidden, options.horizon * options.actionDim],
    activation: layoutOf(options).noiseActivation,
    residual: false,
    layerNorm: false,
  };
}

/** CriticObs's Q1: the value input → hidden → 1. */
export function reflowValueLayout(options: FlowPolicyOptions, inputDim: number): TorchMlpLayout {
  const layout = layoutOf(options);
  return { dims: [inputDim, ...options.valueHidden, 1], activation: layout.criticActivation, residual: layout.criticResidual, layerNorm: layout.criticLayerNorm };
}

/** The flattened history [B, nObs·obsDim] → cond embedding (identity without cond_mlp). */
export function reflowEncode(param: ParamLookup, options: FlowPolicyOptions, flat: tf.Tensor2D): tf.Tensor2D {
  const layout = reflowEncoderLayout(options);
  return layout ? torchMlp(param, 'encoder', layout, flat).output as tf.Tensor2D : flat;
}

/**
 * NoisyFlowMLP's learned std (learn_explore_time_embedding false, time-dependent): the policy's time embedding, with
 * no gradient into it, beside the cond embedding → mlp_logvar → the bounded std of noise-head.ts. → [B, H, A].
 */
export function reflowNoiseStd(param: ParamLookup, options: FlowPolicyOptions, features: tf.Tensor2D, t: tf.Tensor1D, stepSize: tf.Tensor1D, bounds: NoiseHeadBounds): tf.Tensor3D {
  return tf.tidy(() => {
    const input = tf.concat([stopGradient(reflowTimeEmbedding(param, options, t, stepSize)), features], 1);
    const raw = torchMlp(param, 'noise_head', reflowNoiseLayout(options), input).output;
    return tf.reshape(boundedStd(raw, bounds), [-1, options.horizon, options.actionDim]) as tf.Tensor3D;
  });
}

/** CriticObs on the value input [B, D] → [B]. */
export function reflowValue(param: ParamLookup, options: FlowPolicyOptions, input: tf.Tensor2D): tf.Tensor1D {
  return tf.tidy(() => tf.reshape(torchMlp(param, 'value', reflowValueLayout(options, input.shape[1]), input).output, [-1]) as tf.Tensor1D);
}
