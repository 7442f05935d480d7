import { CheckpointError } from '../../errors';
import { REINFLOW_GYM_LAYOUT, type ReflowLayout, type ShortcutCombination } from '../../policy/options';
import { TORCH_ACTIVATIONS, type TorchActivation } from '../../policy/torch-mlp';
import { isBoolean, isNumber, isString, type HydraConfig } from './hydra-config';

/**
 * What a ReinFlow run's Hydra config says that the tensors cannot (DESIGN.md §18): activations, ShortCut's combination,
 * the sampler settings; ReinFlow's Gym defaults where there is no config, said in one note.
 */

/** How the imported policy samples, from the peer's config or its Gym defaults. */
export interface PeerSamplerSettings {
  denoiseSteps: number;
  nActionSteps: number;
  /** ReinFlow's denoised_clip_value with clip_intermediate_actions (0 = off). */
  denoisedClamp: number;
  /** Exploration-noise std bounds (fine-tuned files: from the noise net's stored log σ² bounds). */
  stdMin: number;
  stdMax: number;
}

/** ReinFlow's Gym fine-tuning defaults (`ft_ppo_reflow_mlp.yaml`) where no config is given. */
export const GYM_DEFAULTS = { denoiseSteps: 4, denoisedClamp: 1, stdMin: 0.1, stdMax: 0.24, criticHidden: [256, 256, 256], noiseHidden: [64, 64] };

const isActivation = (value: unknown): value is TorchActivation => typeof value === 'string' && (TORCH_ACTIVATIONS as readonly string[]).includes(value);

/** The config's name for the velocity net: `model.network` in pretraining configs, `model.policy` in fine-tuning ones. */
export function policyRootOf(kind: 'pretrain' | 'finetune'): string {
  return kind === 'pretrain' ? 'network' : 'policy';
}

/** ShortCutFlowMLP's embed_combination_type: the config's, else what the head's width allows (add when it cannot tell). */
export function shortcutCombination(config: HydraConfig | undefined, policyRoot: string, headCondition: number, timeDim: number, notes: string[]): ShortcutCombination {
  const stated = config?.first([`model.${policyRoot}.embed_combination_type`], isString);
  if (stated === 'add' || stated === 'multiply' || stated === 'concate') return stated;
  if (headCondition !== timeDim) return 'concate';
  notes.push(`ShortCut's embed_combination_type is not in a config: add and multiply look the same in the tensors; using add, its default`);
  return 'add';
}

/** The sizes the config states must be the ones the tensors and normalization.npz give. */
export function checkConfigSizes(config: HydraConfig | undefined, sizes: Record<string, number>, normalizationName: string): void {
  if (!config) return;
  for (const [key, size] of Object.entries(sizes)) {
    const stated = config.get(key);
    if (typeof stated === 'number' && stated !== size) {
      throw new CheckpointError(`${config.name} says ${key}: ${stated}, but the checkpoint's tensors with ${normalizationName} give ${size}`);
    }
  }
}

/** The layout's activations and sampler settings from the config, else ReinFlow's Gym defaults (said in one note). */
export function layoutFromConfig(config: HydraConfig | undefined, policyRoot: string, notes: string[]): Pick<ReflowLayout, 'activation' | 'criticActivation' | 'noiseActivation'> {
  if (!config) {
    notes.push(`no Hydra config found: using ReinFlow's Gym hopper settings (activation ${REINFLOW_GYM_LAYOUT.activation}, critic ${REINFLOW_GYM_LAYOUT.criticActivation}, noise net ${REINFLOW_GYM_LAYOUT.noiseActivation}, K = ${GYM_DEFAULTS.denoiseSteps}, clip ${GYM_DEFAULTS.denoisedClamp}, noise std ${GYM_DEFAULTS.stdMin}-${GYM_DEFAULTS.stdMax}); give peer_config=FILE.yaml if the run used others`);
    return REINFLOW_GYM_LAYOUT;
  }
  const activation = config.first([`model.${policyRoot}.activation_type`], isActivation);
  if (!activation) notes.push(`${config.name} names no activation_type for the policy: using ${REINFLOW_GYM_LAYOUT.activation}`);
  return {
    activation: activation ?? REINFLOW_GYM_LAYOUT.activation,
    criticActivation: config.first(['model.critic.activation_type'], isActivation) ?? REINFLOW_GYM_LAYOUT.criticActivation,
    noiseActivation: config.first(['model.explore_net_activation_type'], isActivation) ?? REINFLOW_GYM_LAYOUT.noiseActivation,
  };
}

export function samplerFromConfig(config: HydraConfig | undefined, horizon: number): PeerSamplerSettings {
  const steps = config?.first(['denoising_steps', 'model.inference_steps', 'model.max_denoising_steps'], isNumber);
  const actSteps = config?.first(['act_steps', 'horizon_steps'], isNumber);
  const clipIntermediate = config?.first(['train.clip_intermediate_actions'], isBoolean) ?? true;
  const clipValue = config?.first(['model.denoised_clip_value'], isNumber) ?? GYM_DEFAULTS.denoisedClamp;
  return {
    denoiseSteps: steps && Number.isInteger(steps) && steps > 0 ? steps : GYM_DEFAULTS.denoiseSteps,
    nActionSteps: actSteps && Number.isInteger(actSteps) && actSteps > 0 && actSteps <= horizon ? actSteps : horizon,
    denoisedClamp: clipIntermediate ? clipValue : 0,
    stdMin: config?.first(['model.min_logprob_denoising_std', 'min_std'], isNumber) ?? GYM_DEFAULTS.stdMin,
    stdMax: config?.first(['model.max_logprob_denoising_std', 'max_std'], isNumber) ?? GYM_DEFAULTS.stdMax,
  };
}
