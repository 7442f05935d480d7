import * as tf from '@tensorflow/tfjs';
import { ConfigError } from '../errors';
import { dense, mlpLayers, type ParamLookup } from './layers';
import type { FlowPolicyOptions } from './options';
import { stopGradient } from './stop-gradient';
import { sinusoidalEmbedding } from './time-embedding';
import { unet1dStepEmbedding } from './velocity-unet1d';

/** Bounds of the learned exploration std; passed per call so sliders change them without new variables. */
export interface NoiseHeadBounds {
  /** σ_min > 0 */
  stdMin: number;
  /** σ_max ≥ σ_min */
  stdMax: number;
}

/** Throws ConfigError unless 0 < stdMin ≤ stdMax, both finite. */
export function validateNoiseBounds(bounds: NoiseHeadBounds): void {
  if (!Number.isFinite(bounds.stdMin) || bounds.stdMin <= 0) {
    throw new ConfigError('noise.std_min', `noise.std_min must be a finite number > 0, got ${bounds.stdMin}`);
  }
  if (!Number.isFinite(bounds.stdMax) || bounds.stdMax < bounds.stdMin) {
    throw new ConfigError('noise.std_max', `noise.std_max must be finite and ≥ noise.std_min (${bounds.stdMin}), got ${bounds.stdMax}`);
  }
}

/**
 * DESIGN.md §3 "Noise head": logvar = lo + (hi − lo)·(tanh(r) + 1)/2 with lo = log σ_min², hi = log σ_max²;
 * std = exp(logvar/2). raw r: any shape → std of the same shape.
 */
export function boundedStd(raw: tf.Tensor, bounds: NoiseHeadBounds): tf.Tensor {
  const lo = 2 * Math.log(bounds.stdMin);
  const hi = 2 * Math.log(bounds.stdMax);
  return tf.tidy(() => {
    const unit = tf.mul(tf.add(tf.tanh(raw), 1), 0.5);
    const logvar = tf.add(tf.mul(unit, hi - lo), lo);
    return tf.exp(tf.mul(logvar, 0.5));
  });
}

/**
 * The step's embedding the noise head reads: sinusoid(t), or with the UNet1D the conditioning its FiLM layers read
 * (seed 003's NoisyVelocityUNet1D), the learned [emb(t) | emb(d)], held fixed so the noise head's loss leaves the
 * velocity net's embedding to the velocity loss. t, d [B] → [B, E] or [B, 2E].
 */
function noiseHeadEmbedding(param: ParamLookup, options: FlowPolicyOptions, t: tf.Tensor1D, stepSize: tf.Tensor1D | undefined): tf.Tensor2D {
  if (options.velocityNet !== 'unet1d') return sinusoidalEmbedding(t, options.timeEmbedDim);
  return stopGradient(unet1dStepEmbedding(param, options, t, stepSize ?? tf.zerosLike(t))) as tf.Tensor2D;
}

/**
 * Noise head: [features [B, F], step embedding] → MLP → raw r [B, H·A] → std [B, H, A] within the bounds. t [B]; the
 * step size d [B] is read by a UNet1D policy's shortcut embedding only.
 */
export function noiseHeadStd(
  param: ParamLookup,
  options: FlowPolicyOptions,
  features: tf.Tensor2D,
  t: tf.Tensor1D,
  bounds: NoiseHeadBounds,
  stepSize?: tf.Tensor1D,
): tf.Tensor3D {
  return tf.tidy(() => {
    const input = tf.concat([features, noiseHeadEmbedding(param, options, t, stepSize)], 1);
    const h = mlpLayers(param, 'noise_head', input, options.noiseHidden.length);
    const raw = dense(param, 'noise_head.output', h);
    return tf.reshape(boundedStd(raw, bounds), [-1, options.horizon, options.actionDim]) as tf.Tensor3D;
  });
}
