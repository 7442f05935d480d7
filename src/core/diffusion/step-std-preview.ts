/**
 * The std each denoising step of a diffusion policy's rollouts applies (DESIGN.md §17), for the studio's exploration
 * panel: the step's own std (DDPM's √β̃_t, or DDIM's σ at η = 1) and after DPPO's floor, max(std, dppo.min_sampling_std).
 * Pure float64 with no tfjs, so the page can draw it as the slider moves; pinned to the sampler's coefficients in its test.
 */
import { ddimTimesteps, ddpmSchedule } from './ddpm-schedule';

export interface StepStdPreview {
  /** The chain's timesteps, noisiest first: T−1 … 0, or the leading DDIM grid. */
  timesteps: number[];
  /** Each step's std before the floor. */
  own: number[];
  /** What rollouts apply: max(own, floor). */
  applied: number[];
}

/** DDIM's σ at η = 1 between ᾱ and the next grid time's ᾱ_prev, floored at 1e−10 as DPPO does. */
function ddimSigma(alpha: number, alphaPrev: number): number {
  return Math.max(1e-10, Math.sqrt(((1 - alphaPrev) / (1 - alpha)) * (1 - alpha / alphaPrev)));
}

/** The stds of a chain of T DDPM steps (ddimSteps = 0) or S DDIM steps, under the sampling floor. */
export function stepStdPreview(steps: number, ddimSteps: number, floor: number): StepStdPreview {
  const schedule = ddpmSchedule(steps);
  const timesteps = ddimSteps > 0 ? ddimTimesteps(steps, ddimSteps) : Array.from({ length: steps }, (_, index) => steps - 1 - index);
  const own = timesteps.map((t, index) => {
    if (ddimSteps === 0) return Math.exp(0.5 * schedule.logvarClipped[t]);
    const alphaPrev = index + 1 < timesteps.length ? schedule.alphasCumprod[timesteps[index + 1]] : 1;
    return ddimSigma(schedule.alphasCumprod[t], alphaPrev);
  });
  return { timesteps, own, applied: own.map((std) => Math.max(std, floor)) };
}
