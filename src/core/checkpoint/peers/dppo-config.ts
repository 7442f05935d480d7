import type { ConfigKey } from '../../config';
import { CheckpointError } from '../../errors';
import { REINFLOW_GYM_LAYOUT, type ReflowLayout } from '../../policy/options';
import { TORCH_ACTIVATIONS, type TorchActivation } from '../../policy/torch-mlp';
import { isBoolean, isNumber, isString, type HydraConfig } from './hydra-config';

/**
 * What a DPPO run's Hydra config says that the tensors cannot (DESIGN.md §17, §18): activations, the DDPM or DDIM chain,
 * the fine-tuning settings in our keys, and what this build cannot run as DPPO did (refused in one sentence). DPPO's
 * Gym hopper settings stand in where there is no config, said in one note.
 */

/** A run-config field the peer's config sets, in our key. */
export interface PeerConfigField {
  key: ConfigKey;
  value: number | boolean | string;
}

/** How the imported diffusion policy samples and fine-tunes. */
export interface DppoSettings {
  /** T, the DDPM steps the net was trained on. */
  denoiseSteps: number;
  /** DDIM steps on DPPO's leading grid; 0 = the DDPM chain. */
  ddimSteps: number;
  nActionSteps: number;
  /** DPPO's denoised_clip_value: x̂_0 clamped to ±c; 0 = off. */
  denoisedClamp: number;
  /** DPPO's fine-tuning settings (dppo.*, ppo.*, learning rates, GAE), in our keys, in order. */
  fields: PeerConfigField[];
}

/** DPPO's Gym hopper settings (`pre_diffusion_mlp.yaml`, `ft_ppo_diffusion_mlp.yaml`) where no config is given. */
export const DPPO_GYM_DEFAULTS = {
  denoiseSteps: 20,
  denoisedClip: 1,
  activation: 'ReLU' as TorchActivation,
  criticActivation: 'Mish' as TorchActivation,
  criticHidden: [256, 256, 256],
  ftDenoisingSteps: 10,
  gammaDenoising: 0.99,
  clip: 0.01,
  clipBase: 0.01,
  clipRate: 3,
  minSamplingStd: 0.1,
  minLogprobStd: 0.1,
  randnClip: 3,
  actorLr: 1e-4,
  criticLr: 1e-3,
  updateEpochs: 5,
  gamma: 0.99,
  gaeLambda: 0.95,
  vfCoef: 0.5,
  targetKl: 1,
  rewardScaleRunning: true,
  criticWarmupItr: 0,
};

/** PPODiffusion's (and DiffusionModel's) own defaults: what ran for a key its fine-tuning config leaves out. */
const PPO_DIFFUSION_DEFAULTS = { clipBase: 1e-3, clipRate: 3, minSamplingStd: 0.1, minLogprobStd: 0.1, randnClip: 10 };

/** DPPO's final_action_clip_value as this build samples (diffusion-settings.ts). */
const FINAL_ACTION_CLIP = 1;

/** The model classes read, by the config's `model._target_`. */
const DPPO_MODELS = /(^|\.)diffusion\.DiffusionModel$|(^|\.)diffusion_ppo\.PPODiffusion$/;

const isActivation = (value: unknown): value is TorchActivation => typeof value === 'string' && (TORCH_ACTIVATIONS as readonly string[]).includes(value);
const isMapping = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a config's model is one of DPPO's diffusion models (the DPPO reader takes it, refusing the ones it cannot run). */
export function isDppoConfig(config: HydraConfig | undefined): boolean {
  const target = config?.first(['model._target_'], isString);
  return target !== undefined && /(^|\.)diffusion\./.test(target) && !/reflow|shortcut|ppoflow/i.test(target);
}

/** The config's first value of `model.<key>` or the top-level `<key>`. */
function stated<T>(config: HydraConfig | undefined, key: string, isType: (value: unknown) => value is T): T | undefined {
  return config?.first([`model.${key}`, key], isType);
}

/** Things DPPO's config can ask for that this build would not run as DPPO does: one sentence each. */
export function refuseUnsupportedDppo(config: HydraConfig | undefined, label: string): void {
  if (!config) return;
  const fail = (what: string) => {
    throw new CheckpointError(`${label}: ${config.name} ${what}`);
  };
  const target = config.first(['model._target_'], isString);
  if (target && !DPPO_MODELS.test(target)) fail(`names the model ${target}; this build imports DPPO's DiffusionModel and PPODiffusion`);
  for (const net of ['model.network._target_', 'model.actor._target_']) {
    const netTarget = config.get(net);
    if (isString(netTarget) && !/(^|\.)mlp_diffusion\.DiffusionMLP$/.test(netTarget)) fail(`names the denoising net ${netTarget}; this build reads DPPO's DiffusionMLP`);
  }
  const critic = config.get('model.critic._target_');
  if (isString(critic) && !/(^|\.)critic\.CriticObs$/.test(critic)) fail(`names the critic ${critic}; this build reads DPPO's CriticObs`);
  if (stated(config, 'predict_epsilon', isBoolean) === false) fail('sets predict_epsilon: false (the net predicts x_0); this build runs ε-prediction diffusion policies');
  if (stated(config, 'learn_eta', isBoolean) === true) fail("sets learn_eta: true; this build's stochastic DDIM steps take DPPO's fixed η = 1");
  const outActivation = config.first(['model.network.out_activation_type', 'model.actor.out_activation_type'], isString);
  if (outActivation !== undefined && outActivation !== 'Identity') fail(`gives DiffusionMLP the output activation ${outActivation}; this build reads it with none (Identity)`);
  const finalClip = stated(config, 'final_action_clip_value', isNumber);
  if (finalClip !== undefined && finalClip !== FINAL_ACTION_CLIP) fail(`sets final_action_clip_value: ${finalClip}; this build clips the chain's last step to ±${FINAL_ACTION_CLIP}`);
  if (stated(config, 'use_ddim', isBoolean) === true) {
    const discretize = stated(config, 'ddim_discretize', isString);
    if (discretize !== undefined && discretize !== 'uniform') fail(`sets ddim_discretize: ${discretize}; this build runs DPPO's uniform (leading) DDIM grid`);
    if (stated(config, 'eps_clip_value', isNumber) !== undefined) fail("sets eps_clip_value, which clamps DDIM's ε; this build does not");
    const baseEta = config.get('model.eta.base_eta');
    if (isNumber(baseEta) && baseEta !== 1) fail(`sets the DDIM eta's base_eta: ${baseEta}; this build's stochastic DDIM steps take η = 1`);
  }
  const annealBy = stated(config, 'ft_denoising_steps_d', isNumber) ?? 0;
  const annealEvery = stated(config, 'ft_denoising_steps_t', isNumber) ?? 0;
  if (annealBy > 0 && annealEvery > 0) fail(`anneals ft_denoising_steps (by ${annealBy} every ${annealEvery} iterations), so the count at saving is not in the file; this build fine-tunes a fixed count`);
}

/** η of DPPO's EtaFixed from its stored logit: min + (max − min)·(tanh(logit) + 1)/2, with the config's bounds. */
export function dppoEta(logit: number, config: HydraConfig | undefined): number {
  const min = config?.first(['model.eta.min_eta'], isNumber) ?? 0.1;
  const max = config?.first(['model.eta.max_eta'], isNumber) ?? 1;
  return 0.5 * (Math.tanh(logit) + 1) * (max - min) + min;
}

/** DPPO's critic-only iterations (n_critic_warmup_itr) in env steps: iterations × n_steps decisions × n_envs × act_steps. */
function criticWarmup(config: HydraConfig | undefined, actSteps: number): number {
  const iterations = config?.first(['train.n_critic_warmup_itr'], isNumber) ?? DPPO_GYM_DEFAULTS.criticWarmupItr;
  if (iterations === 0) return 0;
  const decisions = config?.first(['train.n_steps'], isNumber);
  const envs = config?.first(['env.n_envs'], isNumber);
  return decisions !== undefined && envs !== undefined ? iterations * decisions * envs * actSteps : 0;
}

/** Whether the config runs DDIM (`use_ddim`), and its steps. */
export function dppoDdimSteps(config: HydraConfig | undefined, label: string): number {
  if (stated(config, 'use_ddim', isBoolean) !== true) return 0;
  const steps = stated(config, 'ddim_steps', isNumber);
  if (steps === undefined || !Number.isInteger(steps) || steps < 1) throw new CheckpointError(`${label}: ${config?.name} sets use_ddim but no whole ddim_steps`);
  return steps;
}

/** DiffusionMLP's and CriticObs's activations: the config's, their classes' defaults (Mish) where it names none, Gym hopper's without a config. */
export function dppoLayoutFromConfig(config: HydraConfig | undefined, notes: string[]): Pick<ReflowLayout, 'activation' | 'criticActivation' | 'noiseActivation'> {
  if (!config) {
    return { activation: DPPO_GYM_DEFAULTS.activation, criticActivation: DPPO_GYM_DEFAULTS.criticActivation, noiseActivation: REINFLOW_GYM_LAYOUT.noiseActivation };
  }
  const activation = config.first(['model.actor.activation_type', 'model.network.activation_type'], isActivation);
  if (!activation) notes.push(`${config.name} names no activation_type for DiffusionMLP: using its default, Mish`);
  return {
    activation: activation ?? 'Mish',
    criticActivation: config.first(['model.critic.activation_type'], isActivation) ?? 'Mish',
    noiseActivation: REINFLOW_GYM_LAYOUT.noiseActivation,
  };
}

/** A fresh critic's widths and style when the file has none: the config's `model.critic`, else Gym hopper's. */
export function dppoCriticFromConfig(config: HydraConfig | undefined): { hidden: number[]; residual: boolean; layerNorm: boolean } {
  const dims = config?.get('model.critic.mlp_dims');
  const hidden = Array.isArray(dims) && dims.length > 0 && dims.every((dim) => Number.isInteger(dim) && (dim as number) > 0) ? (dims as number[]) : DPPO_GYM_DEFAULTS.criticHidden;
  return {
    hidden: [...hidden],
    residual: config?.first(['model.critic.residual_style'], isBoolean) ?? REINFLOW_GYM_LAYOUT.criticResidual,
    layerNorm: config?.first(['model.critic.use_layernorm'], isBoolean) ?? REINFLOW_GYM_LAYOUT.criticLayerNorm,
  };
}

/**
 * The chain and fine-tuning settings: the config's, PPODiffusion's own defaults for what a fine-tuning config leaves
 * out, DPPO's Gym hopper values without a config (or with a pretraining one, which has no fine-tuning settings).
 */
export function dppoSettingsFromConfig(config: HydraConfig | undefined, horizon: number, label: string, notes: string[]): DppoSettings {
  if (!config) {
    const g = DPPO_GYM_DEFAULTS;
    notes.push(`no Hydra config found: using DPPO's Gym hopper settings (DiffusionMLP ${g.activation}, critic ${g.criticActivation}, T = ${g.denoiseSteps} DDPM steps, x̂0 clip ${g.denoisedClip}, K' = ${g.ftDenoisingSteps} fine-tuned steps, ratio clip ${g.clip} from ${g.clipBase} at rate ${g.clipRate}, min std ${g.minSamplingStd}, step noise clip ${g.randnClip}, actor lr ${g.actorLr}, critic lr ${g.criticLr}); give peer_config=FILE.yaml if the run used others`);
  }
  const steps = stated(config, 'denoising_steps', isNumber);
  if (config && steps === undefined) notes.push(`${config.name} names no denoising_steps: using ${DPPO_GYM_DEFAULTS.denoiseSteps}`);
  const denoiseSteps = steps !== undefined && Number.isInteger(steps) && steps > 0 ? steps : DPPO_GYM_DEFAULTS.denoiseSteps;
  const ddimSteps = dppoDdimSteps(config, label);
  const clipValue = config?.get('model.denoised_clip_value');
  const denoisedClamp = clipValue === null ? 0 : isNumber(clipValue) ? clipValue : DPPO_GYM_DEFAULTS.denoisedClip;
  const actSteps = stated(config, 'act_steps', isNumber);
  const nActionSteps = actSteps !== undefined && Number.isInteger(actSteps) && actSteps > 0 && actSteps <= horizon ? actSteps : horizon;
  if (config && stated(config, 'final_action_clip_value', isNumber) === undefined) {
    notes.push(`${config.name} leaves final_action_clip_value unset: DPPO stepped the env with the chain's last step as it came; this build clips it to ±${FINAL_ACTION_CLIP} first`);
  }

  return { denoiseSteps, ddimSteps, nActionSteps, denoisedClamp, fields: fineTuningFields(config, nActionSteps, notes) };
}

/** DPPO's fine-tuning settings in our keys: the config's, PPODiffusion's defaults for what a fine-tuning config leaves out, else Gym hopper's. */
function fineTuningFields(config: HydraConfig | undefined, nActionSteps: number, notes: string[]): PeerConfigField[] {
  const fineTuningConfig = config?.first(['model._target_'], isString)?.endsWith('PPODiffusion') ?? false;
  const fallback = fineTuningConfig ? PPO_DIFFUSION_DEFAULTS : DPPO_GYM_DEFAULTS;
  const fields: PeerConfigField[] = [];
  const add = (key: ConfigKey, value: number | boolean | string | undefined) => {
    if (value !== undefined) fields.push({ key, value });
  };
  const model = <T>(key: string, isType: (value: unknown) => value is T): T | undefined => stated(config, key, isType);
  const ftSteps = model('ft_denoising_steps', isNumber);
  if (ftSteps !== undefined && !(Number.isInteger(ftSteps) && ftSteps >= 1)) {
    notes.push(`${config?.name} sets ft_denoising_steps: ${ftSteps} (an evaluation config); fine-tuning here takes dppo.ft_denoising_steps=${DPPO_GYM_DEFAULTS.ftDenoisingSteps}`);
  }
  add('dppo.ft_denoising_steps', ftSteps !== undefined && Number.isInteger(ftSteps) && ftSteps >= 1 ? ftSteps : DPPO_GYM_DEFAULTS.ftDenoisingSteps);
  add('dppo.gamma_denoising', model('gamma_denoising', isNumber) ?? DPPO_GYM_DEFAULTS.gammaDenoising);
  const clip = model('clip_ploss_coef', isNumber) ?? DPPO_GYM_DEFAULTS.clip;
  add('dppo.clip_base', model('clip_ploss_coef_base', isNumber) ?? fallback.clipBase);
  add('dppo.clip_rate', model('clip_ploss_coef_rate', isNumber) ?? fallback.clipRate);
  const minSampling = config?.get('model.min_sampling_denoising_std');
  if (minSampling !== undefined && !isNumber(minSampling)) {
    notes.push(`${config?.name}'s min_sampling_denoising_std is ${isMapping(minSampling) ? 'a schedule' : 'not a number'}: using ${fallback.minSamplingStd} (dppo.min_sampling_std)`);
  }
  add('dppo.min_sampling_std', isNumber(minSampling) ? minSampling : fallback.minSamplingStd);
  add('dppo.min_logprob_std', model('min_logprob_denoising_std', isNumber) ?? fallback.minLogprobStd);
  add('dppo.randn_clip', model('randn_clip_value', isNumber) ?? fallback.randnClip);
  add('dppo.adv_quantile_low', model('clip_advantage_lower_quantile', isNumber) ?? 0);
  add('dppo.adv_quantile_high', model('clip_advantage_upper_quantile', isNumber) ?? 1);
  add('ppo.clip_low', clip);
  add('ppo.clip_high', clip);
  add('ppo.value_clip', model('clip_vloss_coef', isNumber) ?? 0);
  // The trainer's settings: DPPO's train section, its own defaults for optional keys a fine-tuning config leaves out.
  const trainNumber = (key: string) => config?.first([`train.${key}`], isNumber);
  const g = DPPO_GYM_DEFAULTS;
  add('actor_lr', trainNumber('actor_lr') ?? g.actorLr);
  add('critic_lr', trainNumber('critic_lr') ?? g.criticLr);
  add('ppo.epochs', trainNumber('update_epochs') ?? g.updateEpochs);
  // DPPO discounts once per decision of act_steps env steps; ours discounts per env step.
  add('advantages.gamma', Math.pow(trainNumber('gamma') ?? g.gamma, 1 / nActionSteps));
  add('advantages.lambda', trainNumber('gae_lambda') ?? g.gaeLambda);
  add('ppo.value_coef', trainNumber('vf_coef') ?? (fineTuningConfig ? 0 : g.vfCoef));
  add('ppo.target_kl', trainNumber('target_kl') ?? (fineTuningConfig ? 0 : g.targetKl));
  add('ppo.max_grad_norm', trainNumber('max_grad_norm') ?? 0);
  add('ppo.reward_norm', String(config?.first(['train.reward_scale_running'], isBoolean) ?? g.rewardScaleRunning));
  add('ppo.critic_warmup_steps', criticWarmup(config, nActionSteps));
  add('ppo.entropy_coef', trainNumber('ent_coef') ?? 0);
  // PPODiffusion's own constants: v_loss ½(V − R)², log-probs clamped to [−5, 2]; its running reward scaling does not clip.
  add('ppo.value_loss', 'mse');
  add('ppo.logprob_clamp', true);
  add('ppo.logprob_min', -5);
  add('ppo.logprob_max', 2);
  add('ppo.norm_clip', 1e6);
  add('advantages.normalize', model('norm_adv', isBoolean) ?? true);
  // DPPO's BC term (the fine-tuned net's log-prob of the base net's chains) is ppo.bc_coef for a diffusion policy.
  add('ppo.bc_coef', config?.first(['train.use_bc_loss'], isBoolean) === true ? (trainNumber('bc_loss_coeff') ?? 0) : 0);
  const batchSize = fineTuningConfig ? config?.first(['train.batch_size'], isNumber) : undefined;
  if (batchSize !== undefined) notes.push(`${config?.name}'s train.batch_size (${batchSize} denoising-step samples) is not carried: ppo.minibatch_size must divide this run's own num_envs × env.steps_per_iteration × dppo.ft_denoising_steps`);
  return fields;
}
