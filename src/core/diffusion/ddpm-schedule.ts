/**
 * DPPO's DDPM noise schedule and the per-step coefficients its sampler reads (DESIGN.md §17; irom-princeton/dppo
 * model/diffusion/diffusion.py and sampling.py), in float64. Index t = 0..T−1; t = T−1 is the noisiest step.
 */
export interface DdpmSchedule {
  steps: number;
  /** β_t: the cosine schedule, clipped to [0, 0.999]. */
  betas: Float64Array;
  /** ᾱ_t = Π_{s ≤ t} (1 − β_s). */
  alphasCumprod: Float64Array;
  /** ᾱ_{t−1}, with ᾱ_{−1} = 1. */
  alphasCumprodPrev: Float64Array;
  /** x̂_0 = sqrtRecip_t·x_t − sqrtRecipm1_t·ε: √(1/ᾱ_t) and √(1/ᾱ_t − 1). */
  sqrtRecipAlphasCumprod: Float64Array;
  sqrtRecipm1AlphasCumprod: Float64Array;
  /** μ_t = coef1_t·x̂_0 + coef2_t·x_t: β_t·√ᾱ_{t−1}/(1 − ᾱ_t) and (1 − ᾱ_{t−1})·√α_t/(1 − ᾱ_t). */
  muCoef1: Float64Array;
  muCoef2: Float64Array;
  /** log β̃_t with β̃_t = β_t·(1 − ᾱ_{t−1})/(1 − ᾱ_t), floored at 1e−20 before the log. */
  logvarClipped: Float64Array;
}

/** The cosine offset s of Nichol & Dhariwal's schedule, as DPPO uses it. */
const COSINE_OFFSET = 0.008;
const MAX_BETA = 0.999;

/**
 * ᾱ(x) = cos²(((x/(T+1)) + s)/(1 + s)·π/2) over x = linspace(0, T+1, T+1), normalized by ᾱ(0);
 * β_t = 1 − ᾱ(x_{t+1})/ᾱ(x_t), clipped to [0, 0.999]. (numpy's linspace(0, steps, steps) spaces T+1 points
 * (T+1)/T apart: DPPO's grid, kept as it is.)
 */
export function cosineBetas(steps: number): Float64Array {
  const count = steps + 1;
  const alphaBar = Array.from({ length: count }, (_, index) => {
    const x = count === 1 ? 0 : (index * count) / (count - 1);
    return Math.cos(((x / count + COSINE_OFFSET) / (1 + COSINE_OFFSET)) * Math.PI * 0.5) ** 2;
  });
  const betas = new Float64Array(steps);
  for (let t = 0; t < steps; t++) betas[t] = Math.min(MAX_BETA, Math.max(0, 1 - alphaBar[t + 1] / alphaBar[t]));
  return betas;
}

/** Every coefficient of DPPO's DDPM sampler for T steps. */
export function ddpmSchedule(steps: number): DdpmSchedule {
  const betas = cosineBetas(steps);
  const alphasCumprod = new Float64Array(steps);
  const alphasCumprodPrev = new Float64Array(steps);
  let product = 1;
  for (let t = 0; t < steps; t++) {
    alphasCumprodPrev[t] = product;
    product *= 1 - betas[t];
    alphasCumprod[t] = product;
  }
  const map = (fn: (t: number) => number) => Float64Array.from({ length: steps }, (_, t) => fn(t));
  return {
    steps,
    betas,
    alphasCumprod,
    alphasCumprodPrev,
    sqrtRecipAlphasCumprod: map((t) => Math.sqrt(1 / alphasCumprod[t])),
    sqrtRecipm1AlphasCumprod: map((t) => Math.sqrt(1 / alphasCumprod[t] - 1)),
    muCoef1: map((t) => (betas[t] * Math.sqrt(alphasCumprodPrev[t])) / (1 - alphasCumprod[t])),
    muCoef2: map((t) => ((1 - alphasCumprodPrev[t]) * Math.sqrt(1 - betas[t])) / (1 - alphasCumprod[t])),
    logvarClipped: map((t) => Math.log(Math.max(1e-20, (betas[t] * (1 - alphasCumprodPrev[t])) / (1 - alphasCumprod[t])))),
  };
}

/**
 * One DDPM step's mean and std from x_t and the predicted ε (DPPO's p_mean_var and forward): x̂_0 clamped to
 * [−c, c] (c = denoised clip, 0 = none), μ = coef1·x̂_0 + coef2·x_t, std = exp(logvar/2) floored at `minStd`, and 0 at
 * t = 0. Float64 reference of the sampler's arithmetic.
 */
export function ddpmStepReference(
  schedule: DdpmSchedule,
  t: number,
  x: ArrayLike<number>,
  epsilon: ArrayLike<number>,
  options: { denoisedClip: number; minStd: number },
): { mean: Float64Array; std: number } {
  const mean = new Float64Array(x.length);
  for (let index = 0; index < x.length; index++) {
    let x0 = schedule.sqrtRecipAlphasCumprod[t] * x[index] - schedule.sqrtRecipm1AlphasCumprod[t] * epsilon[index];
    if (options.denoisedClip > 0) x0 = Math.min(options.denoisedClip, Math.max(-options.denoisedClip, x0));
    mean[index] = schedule.muCoef1[t] * x0 + schedule.muCoef2[t] * x[index];
  }
  const std = t === 0 ? 0 : Math.max(options.minStd, Math.exp(0.5 * schedule.logvarClipped[t]));
  return { mean, std };
}

/** DPPO's DDIM grid ("leading", as Hugging Face's): t = k·⌊T/S⌋ for k = 0..S−1, sampled from the largest down. */
export function ddimTimesteps(steps: number, ddimSteps: number): number[] {
  const ratio = Math.floor(steps / ddimSteps);
  return Array.from({ length: ddimSteps }, (_, k) => (ddimSteps - 1 - k) * ratio);
}

/**
 * One deterministic DDIM step (η = 0) at grid index i (DPPO's p_mean_var with use_ddim): x̂_0 = (x − √(1 − ᾱ)·ε)/√ᾱ,
 * clamped to [−c, c], ε recomputed from the clamped x̂_0, then x' = √ᾱ_prev·x̂_0 + √(1 − ᾱ_prev)·ε. ᾱ_prev is that of
 * the next grid time down, 1 after the last.
 */
export function ddimStepReference(
  schedule: DdpmSchedule,
  grid: readonly number[],
  index: number,
  x: ArrayLike<number>,
  epsilon: ArrayLike<number>,
  denoisedClip: number,
): Float64Array {
  const alpha = schedule.alphasCumprod[grid[index]];
  const alphaPrev = index + 1 < grid.length ? schedule.alphasCumprod[grid[index + 1]] : 1;
  const out = new Float64Array(x.length);
  for (let element = 0; element < x.length; element++) {
    let x0 = (x[element] - Math.sqrt(1 - alpha) * epsilon[element]) / Math.sqrt(alpha);
    let eps = epsilon[element];
    if (denoisedClip > 0) {
      x0 = Math.min(denoisedClip, Math.max(-denoisedClip, x0));
      eps = (x[element] - Math.sqrt(alpha) * x0) / Math.sqrt(1 - alpha);
    }
    out[element] = Math.sqrt(alphaPrev) * x0 + Math.sqrt(1 - alphaPrev) * eps;
  }
  return out;
}
