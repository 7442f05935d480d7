/**
 * What a diffusion policy's chain reads (DESIGN.md §17), fixed for one rollout, evaluation or export: T, the DDIM grid,
 * DPPO's clips and std floors. The net's time input: DPPO's DiffusionMLP (reflow_mlp) embeds the integer step t as it
 * is; our own nets read t/T, so that their 1000·t embedding scale spaces the T steps as it spaces a flow grid.
 */
import type { RunConfig } from '../config/run-config';
import { ConfigError } from '../errors';
import type { FlowPolicyOptions } from '../policy/options';
import { ddimTimesteps } from './ddpm-schedule';

/** DPPO's final_action_clip_value: the chain's last element is clipped to ±1 (normalized action units). */
export const FINAL_ACTION_CLIP = 1;
/** DPPO's std floor of deterministic DDPM steps (and its log-var clip's floor in sampling). */
export const DDPM_MIN_STD = 1e-3;

export interface DiffusionSettings {
  /** T, the DDPM steps the net was trained on. */
  steps: number;
  /** S > 0: DDIM steps on the leading grid; 0: the DDPM chain. */
  ddimSteps: number;
  /** x̂_0 is clamped to ±c; 0 = off. */
  denoisedClip: number;
  /** K': the last K' steps of the chain are fine-tuned (PPO samples); the earlier ones run the base net. */
  ftSteps: number;
  /** Std floor of every stochastic step in rollouts. */
  minSamplingStd: number;
  /** Std floor of the fine-tuned steps' densities in the loss. */
  minLogprobStd: number;
  /** Step noise is clipped to ±this (DPPO's randn_clip_value). */
  randnClip: number;
}

/** The chain's step count: S with DDIM, else T. */
export function chainLength(settings: Pick<DiffusionSettings, 'steps' | 'ddimSteps'>): number {
  return settings.ddimSteps > 0 ? settings.ddimSteps : settings.steps;
}

/** The chain's timesteps in order, noisiest first: T−1 … 0 (DDPM) or the leading DDIM grid. */
export function chainTimesteps(settings: Pick<DiffusionSettings, 'steps' | 'ddimSteps'>): number[] {
  if (settings.ddimSteps > 0) return ddimTimesteps(settings.steps, settings.ddimSteps);
  return Array.from({ length: settings.steps }, (_, index) => settings.steps - 1 - index);
}

/** The number the net reads for timestep t. */
export function diffusionNetTime(options: Pick<FlowPolicyOptions, 'velocityNet'>, t: number, steps: number): number {
  return options.velocityNet === 'reflow_mlp' ? t : t / steps;
}

/** Refuses a run that would fine-tune more steps than its chain has. */
export function checkFineTunedSteps(config: RunConfig): void {
  const length = chainLength({ steps: config.policy.denoise_steps, ddimSteps: config.policy.ddim_steps });
  if (config.dppo.ft_denoising_steps > length) {
    throw new ConfigError('dppo.ft_denoising_steps', `dppo.ft_denoising_steps (${config.dppo.ft_denoising_steps}) must be at most the chain's ${length} ${config.policy.ddim_steps > 0 ? 'DDIM (policy.ddim_steps)' : 'DDPM (policy.denoise_steps)'} steps`);
  }
}

/** The run config's diffusion settings; throws a ConfigError naming the key that cannot hold. */
export function diffusionSettings(config: RunConfig): DiffusionSettings {
  const steps = config.policy.denoise_steps;
  const ddimSteps = config.policy.ddim_steps;
  if (ddimSteps > steps) throw new ConfigError('policy.ddim_steps', `policy.ddim_steps (${ddimSteps}) must be at most policy.denoise_steps (${steps}), the DDPM steps it thins`);
  if (ddimSteps > 0 && steps % ddimSteps !== 0) {
    throw new ConfigError('policy.ddim_steps', `policy.ddim_steps (${ddimSteps}) must divide policy.denoise_steps (${steps}): DPPO's leading grid steps by T/S`);
  }
  return {
    steps,
    ddimSteps,
    denoisedClip: config.policy.denoised_clamp,
    // Sampling outside training (evaluation, export) may thin the chain below K': every step is then the policy's own.
    ftSteps: Math.min(config.dppo.ft_denoising_steps, chainLength({ steps, ddimSteps })),
    minSamplingStd: config.dppo.min_sampling_std,
    minLogprobStd: config.dppo.min_logprob_std,
    randnClip: config.dppo.randn_clip,
  };
}
