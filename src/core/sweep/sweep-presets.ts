/**
 * Sweep presets (DESIGN.md §11): named lists of variants, each a config preset under the name the
 * reference uses. `reinflow-ablation` is reference 003's table: the baseline and 21 one-category
 * ablations. Every row maps exactly onto our keys (the presets in core/config/presets.ts), with one
 * difference in kind: the reference's `infer:*` rows change num_inference_steps, which is K here
 * (`policy.denoise_steps`), the same denoising steps for sampling and for the log-prob recompute.
 */
import type { PresetName } from '../config/presets';

export interface SweepVariant {
  /** The reference's name, e.g. `warmup:0`. */
  name: string;
  preset: PresetName;
}

export interface SweepPreset {
  doc: string;
  /** The preset every variant starts from; a variant's own keys are the overrides it adds to it. */
  baseline: PresetName;
  variants: readonly SweepVariant[];
}

const REINFLOW_ABLATION: readonly SweepVariant[] = [
  { name: 'baseline', preset: 'reinflow-baseline' },
  { name: 'warmup:0', preset: 'reinflow-warmup-0' },
  { name: 'warmup:2k', preset: 'reinflow-warmup-2k' },
  { name: 'warmup:10k', preset: 'reinflow-warmup-10k' },
  { name: 'noise:constant', preset: 'reinflow-noise-constant' },
  { name: 'noise:exp', preset: 'reinflow-noise-exponential' },
  { name: 'noise:fast', preset: 'reinflow-noise-fast-decay' },
  { name: 'noise:low_init', preset: 'reinflow-noise-low-init' },
  { name: 'noise:high_init', preset: 'reinflow-noise-high-init' },
  { name: 'ppo:clip_tight', preset: 'reinflow-clip-tight' },
  { name: 'ppo:clip_loose', preset: 'reinflow-clip-loose' },
  { name: 'ppo:high_entropy', preset: 'reinflow-entropy-0.05' },
  { name: 'ppo:low_entropy', preset: 'reinflow-entropy-0.001' },
  { name: 'ppo:high_value', preset: 'reinflow-value-coef-1' },
  { name: 'lr:low', preset: 'reinflow-lr-low' },
  { name: 'lr:high', preset: 'reinflow-lr-high' },
  { name: 'lr:equal', preset: 'reinflow-lr-equal' },
  { name: 'infer:4steps', preset: 'reinflow-steps-4' },
  { name: 'infer:16steps', preset: 'reinflow-steps-16' },
  { name: 'rollout:short', preset: 'reinflow-rollout-short' },
  { name: 'rollout:long', preset: 'reinflow-rollout-long' },
  { name: 'rollout:more_epochs', preset: 'reinflow-epochs-8' },
];

export const SWEEP_PRESETS = {
  'reinflow-ablation': {
    doc: "Reference 003's 22-run ablation: the ReinFlow baseline and 21 one-category variants.",
    baseline: 'reinflow-baseline',
    variants: REINFLOW_ABLATION,
  },
  'gaussian-baseline': {
    doc: 'The Gaussian PPO baseline (CleanRL ppo_continuous_action) from scratch, one variant over the seeds.',
    baseline: 'gaussian-ppo',
    variants: [{ name: 'gaussian', preset: 'gaussian-ppo' }],
  },
  dppo: {
    doc: 'DPPO\'s fine-tuning of a diffusion policy (preset dppo), one variant over the seeds; give ckpt= a diffusion BC checkpoint.',
    baseline: 'dppo',
    variants: [{ name: 'dppo', preset: 'dppo' }],
  },
} as const satisfies Record<string, SweepPreset>;

export type SweepPresetName = keyof typeof SWEEP_PRESETS;
export const SWEEP_PRESET_NAMES = Object.keys(SWEEP_PRESETS) as SweepPresetName[];
