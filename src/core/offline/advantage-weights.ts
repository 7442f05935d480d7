import { ConfigError, ShapeError } from '../errors';

/** Stage-2 advantage weighting (DESIGN.md §12, AWR-style). */
export interface AdvantageWeightOptions {
  /** Temperature β on standardized advantages: w ∝ exp(Â/β); smaller β favours the best samples more. */
  beta: number;
  /** w_max: exp(Â/β) is capped here before the weights are scaled to mean 1 (AWR clips at 20). */
  maxWeight: number;
}

/** Added to the advantage std so a constant advantage gives Â = 0 (uniform weights), not 0/0. */
export const ADVANTAGE_STD_EPSILON = 1e-8;

export interface AdvantageWeights {
  /** [N] per-sample loss weights, mean 1. */
  weights: Float32Array;
  /** [N] 1 where exp(Â/β) hit w_max. */
  clipped: Uint8Array;
  /** Mean and (population) std of the raw advantages. */
  advantageMean: number;
  advantageStd: number;
  /** Fraction of samples whose weight was capped. */
  clipFraction: number;
  /** Largest and smallest final weight. */
  weightMax: number;
  weightMin: number;
  /** Kish effective sample size over N: (Σw)² / (N·Σw²), 1 for uniform weights. */
  effectiveFraction: number;
}

/** Throws ConfigError naming the bad option and its allowed range. */
export function validateAdvantageWeightOptions(options: AdvantageWeightOptions): void {
  if (!(options.beta > 0) || !Number.isFinite(options.beta)) throw new ConfigError('beta', `beta must be a finite number > 0, got ${options.beta}`);
  if (!(options.maxWeight >= 1) || !Number.isFinite(options.maxWeight)) {
    throw new ConfigError('w_max', `w_max must be a finite number ≥ 1, got ${options.maxWeight}`);
  }
}

/**
 * advantages [N] → weights [N] (DESIGN.md §12 "Stage 2"), in float64:
 *   Â_i = (A_i − mean A) / (std A + 1e-8)          standardized over the whole dataset
 *   u_i = exp(min(Â_i/β, ln w_max))                 = min(exp(Â_i/β), w_max), without overflow
 *   w_i = u_i / mean(u)                             mean 1, so the effective lr matches stage 1
 * The cap applies before the rescaling, so a final weight is at most w_max / mean(u).
 */
export function advantageWeights(advantages: ArrayLike<number>, options: AdvantageWeightOptions): AdvantageWeights {
  validateAdvantageWeightOptions(options);
  const count = advantages.length;
  if (count === 0) throw new ShapeError('advantages', 'advantages must hold at least one sample, got none');
  let sum = 0;
  for (let sampleIndex = 0; sampleIndex < count; sampleIndex++) {
    const value = advantages[sampleIndex];
    if (!Number.isFinite(value)) throw new ShapeError('advantages', `advantage ${sampleIndex} is ${value}; every advantage must be finite`);
    sum += value;
  }
  const mean = sum / count;
  let squares = 0;
  for (let sampleIndex = 0; sampleIndex < count; sampleIndex++) squares += (advantages[sampleIndex] - mean) ** 2;
  const std = Math.sqrt(squares / count);
  const logCap = Math.log(options.maxWeight);
  const unscaled = new Float64Array(count);
  const clipped = new Uint8Array(count);
  let unscaledSum = 0;
  for (let sampleIndex = 0; sampleIndex < count; sampleIndex++) {
    const exponent = (advantages[sampleIndex] - mean) / (std + ADVANTAGE_STD_EPSILON) / options.beta;
    if (exponent > logCap) clipped[sampleIndex] = 1;
    unscaled[sampleIndex] = Math.exp(Math.min(exponent, logCap));
    unscaledSum += unscaled[sampleIndex];
  }
  const unscaledMean = unscaledSum / count;
  const weights = new Float32Array(count);
  let weightMax = -Infinity;
  let weightMin = Infinity;
  let weightSquares = 0;
  let clippedCount = 0;
  for (let sampleIndex = 0; sampleIndex < count; sampleIndex++) {
    const weight = unscaled[sampleIndex] / unscaledMean;
    weights[sampleIndex] = weight;
    weightMax = Math.max(weightMax, weight);
    weightMin = Math.min(weightMin, weight);
    weightSquares += weight * weight;
    clippedCount += clipped[sampleIndex];
  }
  return {
    weights,
    clipped,
    advantageMean: mean,
    advantageStd: std,
    clipFraction: clippedCount / count,
    weightMax,
    weightMin,
    // Σw = N after the rescaling, so (Σw)² / (N·Σw²) = N / Σw².
    effectiveFraction: count / weightSquares,
  };
}
