import { methodMinDenoiseSteps } from '../config/method-bounds';
import { ConfigError } from '../errors';
import type { Rng } from '../random';
import { validateNoiseBounds, type NoiseHeadBounds } from '../policy/noise-head';
import { validateDenoiseSteps, validateMethodLevel, type FlowMethod } from './time-grid';

/** Which steps are stochastic (DESIGN.md §3): one per chain, all (plus the x_0 density), or none. */
export type SampleMode = 'hybrid' | 'joint' | 'eval';
export const SAMPLE_MODES: readonly SampleMode[] = ['hybrid', 'joint', 'eval'];

/** How one chain is sampled; the same values must be used to recompute its log-prob. */
export interface SamplerOptions {
  method: FlowMethod;
  mode: SampleMode;
  /** Denoising steps K. */
  steps: number;
  /** Noise level a (sde, cps); ignored by ode and noise. */
  level: number;
  /** σ bounds of the learned noise head (method noise only). */
  bounds?: NoiseHeadBounds;
  /**
   * c > 0 clamps every step's mean μ to [−c, c], in every mode (ReinFlow's denoised_clip_value with
   * clip_intermediate_actions); 0 or absent leaves μ as it is. `policy.denoised_clamp` in the run config.
   */
  denoisedClamp?: number;
}

/** Throws ConfigError naming the bad field and its allowed values. */
export function validateSamplerOptions(options: SamplerOptions): void {
  validateDenoiseSteps(options.steps);
  validateMethodLevel(options.method, options.level);
  if (!SAMPLE_MODES.includes(options.mode)) {
    throw new ConfigError('mode', `mode must be one of ${SAMPLE_MODES.join(', ')}, got ${String(options.mode)}`);
  }
  if (options.denoisedClamp !== undefined && !(Number.isFinite(options.denoisedClamp) && options.denoisedClamp >= 0)) {
    throw new ConfigError('policy.denoised_clamp', `policy.denoised_clamp must be a finite number ≥ 0 (0 = off), got ${options.denoisedClamp}`);
  }
  if (options.method === 'noise') {
    if (!options.bounds) throw new ConfigError('noise.std_min', 'method noise needs bounds { stdMin, stdMax } (noise.std_min, noise.std_max)');
    validateNoiseBounds(options.bounds);
  }
  if (options.mode === 'hybrid' && options.steps < methodMinDenoiseSteps(options.method)) {
    throw new ConfigError('policy.denoise_steps', `method ${options.method} in hybrid mode needs policy.denoise_steps ≥ ${methodMinDenoiseSteps(options.method)} (its last step has std 0)`);
  }
}

/**
 * `denoise_inds` [B, K] as a 0/1 mask: 1 where step k of chain b was stochastic.
 * - eval, or method ode: all 0.
 * - hybrid: one k per chain, uniform over 0..K−1 (0..K−2 for cps, whose last step has std 0).
 * - joint: all 1 (cps: the last step stays 0).
 */
export function buildDenoiseMask(options: SamplerOptions, batch: number, rng: Rng): Float32Array {
  const steps = options.steps;
  const mask = new Float32Array(batch * steps);
  if (options.mode === 'eval' || options.method === 'ode') return mask;
  const stochasticSteps = options.method === 'cps' ? steps - 1 : steps;
  for (let chainIndex = 0; chainIndex < batch; chainIndex++) {
    if (options.mode === 'hybrid') {
      mask[chainIndex * steps + rng.int(stochasticSteps)] = 1;
    } else {
      for (let stepIndex = 0; stepIndex < stochasticSteps; stepIndex++) mask[chainIndex * steps + stepIndex] = 1;
    }
  }
  return mask;
}
