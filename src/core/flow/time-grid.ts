import { methodLevelBound, methodLevelReason } from '../config/method-bounds';
import { ALL_NUMBERS, formatInterval, inNumericRange, narrowRange } from '../config/numeric-range';
import { ConfigError } from '../errors';
import type { TimeGridKind } from '../policy/options';

/** Denoising methods (DESIGN.md §3 "Step"). */
export type FlowMethod = 'ode' | 'sde' | 'cps' | 'noise';
export const FLOW_METHODS: readonly FlowMethod[] = ['ode', 'sde', 'cps', 'noise'];

/** The one time grid of DESIGN.md §3 "Time": t_i = 1 − i/K for i = 0..K, δ = 1/K. */
export interface TimeGrid {
  /** [K + 1]: t_0 = 1 (noise) … t_K = 0 (action). */
  times: number[];
  /**
   * [K]: the t each step's velocity (and noise) net reads. `uniform`: t_i. `reinflow`: ReinFlow's ReFlow.sample grid,
   * its time linspace(0, 1, K)[i], in our convention t = 1 − i/(K − 1) (1 for K = 1), while the step stays δ = 1/K.
   */
  netTimes: number[];
  delta: number;
  steps: number;
}

/** Throws ConfigError unless K is a positive integer. */
export function validateDenoiseSteps(steps: number): void {
  if (!Number.isInteger(steps) || steps < 1) {
    throw new ConfigError('policy.denoise_steps', `policy.denoise_steps must be a positive integer, got ${steps}`);
  }
}

/** t_i = 1 − i/K, δ = 1/K, and where the net is evaluated (shared by sampling and log-prob recompute). */
export function timeGrid(steps: number, kind: TimeGridKind = 'uniform'): TimeGrid {
  validateDenoiseSteps(steps);
  const times = Array.from({ length: steps + 1 }, (_, stepIndex) => 1 - stepIndex / steps);
  const netTimes = kind === 'uniform'
    ? times.slice(0, steps)
    : Array.from({ length: steps }, (_, stepIndex) => (steps === 1 ? 1 : 1 - stepIndex / (steps - 1)));
  return { times, netTimes, delta: 1 / steps, steps };
}

/**
 * Throws ConfigError unless the method is known and its noise level a is one it takes. The
 * bound is config's own (methodLevelBound), so a config that validates always passes here.
 */
export function validateMethodLevel(method: FlowMethod, level: number): void {
  if (!FLOW_METHODS.includes(method)) {
    throw new ConfigError('noise.method', `noise.method must be one of ${FLOW_METHODS.join(', ')}, got ${String(method)}`);
  }
  const bound = methodLevelBound(method);
  if (bound === undefined) return;
  const range = narrowRange(ALL_NUMBERS, bound);
  if (!inNumericRange(range, level)) {
    throw new ConfigError('noise.level', `noise.level must be in ${formatInterval(range)} for noise.method=${method}, where ${methodLevelReason(method)}; got ${level}`);
  }
}

/** σ_i = a·sqrt(t_i/(1 − t_i)) for i = 0..K−1, with t_1 in the denominator at i = 0 (DESIGN.md §3 `flow_sde`). */
export function sdeSigmas(steps: number, level: number): number[] {
  const { times } = timeGrid(steps);
  return times.slice(0, steps).map((t, stepIndex) => {
    const denominatorTime = stepIndex === 0 ? times[Math.min(1, steps)] : t;
    // K = 1 has t_1 = 0, so σ_0 = a·sqrt(1/1) = a.
    return level * Math.sqrt(t / (1 - denominatorTime));
  });
}

/** Per-step mean weights and fixed std: μ_i = w0_i·x0̂ + w1_i·x1̂, x_{i+1} = μ_i + std_i·ε. */
export interface StepCoefficients {
  /** [K] */
  w0: number[];
  /** [K] */
  w1: number[];
  /** [K]; for method `noise` the std comes from the noise head and this holds 0. */
  std: number[];
}

/**
 * DESIGN.md §3 "Step", with t = t_i and δ = 1/K:
 * - ode / noise: w0 = 1 − (t − δ), w1 = t − δ, std 0 (noise: std from the head).
 * - sde: w0 = 1 − (t − δ), w1 = t − δ − σ_i²·δ/(2t), std = sqrt(δ)·σ_i.
 * - cps: w0 = 1 − (t − δ), w1 = (t − δ)·cos(πa/2), std = (t − δ)·sin(πa/2) (0 at the last step).
 */
export function stepCoefficients(method: FlowMethod, steps: number, level: number): StepCoefficients {
  validateMethodLevel(method, level);
  const { times, delta } = timeGrid(steps);
  const sigmas = method === 'sde' ? sdeSigmas(steps, level) : [];
  const w0: number[] = [];
  const w1: number[] = [];
  const std: number[] = [];
  for (let stepIndex = 0; stepIndex < steps; stepIndex++) {
    const t = times[stepIndex];
    const next = t - delta;
    w0.push(1 - next);
    if (method === 'sde') {
      w1.push(next - (sigmas[stepIndex] ** 2 * delta) / (2 * t));
      std.push(Math.sqrt(delta) * sigmas[stepIndex]);
    } else if (method === 'cps') {
      w1.push(next * Math.cos((Math.PI * level) / 2));
      std.push(next * Math.sin((Math.PI * level) / 2));
    } else {
      w1.push(next);
      std.push(0);
    }
  }
  return { w0, w1, std };
}
