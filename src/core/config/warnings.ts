/**
 * Keys that are valid but do nothing in the config they sit in. They are warnings,
 * not errors: the run is sound, the setting is just ignored. Each comes at most once,
 * as one sentence naming the key, its value and why it has no effect.
 */
import { isImageObsMode, readsCameras } from '../envs/task-types';
import { getField } from './access';
import { formatFieldValue } from './field-values';
import { rewardNormOn } from './reward-norm';
import type { ConfigKey, RunConfig, StageSection } from './run-config';

/** What the host does with a config, which decides which keys take effect there. */
export interface WarningHost {
  /** PPO trains the policy here (train, the studio); pretrain and eval do not read ppo.*. */
  readonly trainsPpo: boolean;
  /** Eval videos are recorded here (only the studio does). */
  readonly recordsVideos: boolean;
  /** The host saves the run on its own, whatever checkpoint_every says (the studio's autosave). */
  readonly autosaves: boolean;
  /** The recipe stages run here, whose config sections (pretrain.*, offline.*) take effect; the other sections do nothing. */
  readonly stages: readonly StageSection[];
}

/** The command line's `train`. */
export const CLI_TRAIN_HOST: WarningHost = { trainsPpo: true, recordsVideos: false, autosaves: false, stages: [] };
/** The command line's `eval`. */
export const CLI_NO_PPO_HOST: WarningHost = { trainsPpo: false, recordsVideos: false, autosaves: false, stages: [] };
/** The command line's `pretrain` (stage 1). */
export const CLI_PRETRAIN_HOST: WarningHost = { ...CLI_NO_PPO_HOST, stages: ['pretrain'] };
/** The command line's `offline` (stage 2). */
export const CLI_OFFLINE_HOST: WarningHost = { ...CLI_NO_PPO_HOST, stages: ['offline'] };
/** The studio's trainer, whose demos tab runs both stages. */
export const STUDIO_HOST: WarningHost = { trainsPpo: true, recordsVideos: true, autosaves: true, stages: ['pretrain', 'offline'] };

const shown = (config: RunConfig, key: ConfigKey) => `${key}=${formatFieldValue(getField(config, key))}`;

/**
 * Sentences for the keys in `config` that have no effect on `host`. `givenKeys` are the
 * keys someone set (typed on the command line, or differing from the defaults in the
 * studio); a key nobody set is never warned about, except ppo.entropy_coef and
 * advantages.grpo_filter, whose defaults (0, false) mean any other value was set on purpose.
 */
export function configWarnings(config: RunConfig, givenKeys: Iterable<ConfigKey>, host: WarningHost): string[] {
  const given = new Set(givenKeys);
  const warnings: string[] = [];
  const method = config.noise.method;
  if (host.trainsPpo && config.policy.kind === 'flow' && config.ppo.entropy_coef !== 0 && (method === 'sde' || method === 'cps')) {
    // With sde or cps σ is a fixed schedule, so the entropy bonus is a constant with no gradient.
    warnings.push(`${shown(config, 'ppo.entropy_coef')} does nothing with noise.method=${method}, whose std is fixed, so the entropy term has no gradient; only noise.method=noise has a learned std`);
  }
  if (host.trainsPpo && config.advantages.grpo_filter && config.advantages.type !== 'grpo') {
    warnings.push(`${shown(config, 'advantages.grpo_filter')} does nothing with advantages.type=${config.advantages.type}; it filters GRPO groups only (advantages.type=grpo)`);
  }
  if (host.trainsPpo && given.has('advantages.normalize') && config.advantages.normalize && config.advantages.type === 'grpo') {
    warnings.push(`${shown(config, 'advantages.normalize')} does nothing with advantages.type=grpo, whose advantages are normalized within each group only (as in RLinf), never again over the batch`);
  }
  const clampKeys = (['ppo.logprob_min', 'ppo.logprob_max'] as const).filter((key) => given.has(key));
  if (host.trainsPpo && clampKeys.length > 0 && !config.ppo.logprob_clamp) {
    const listed = clampKeys.map((key) => shown(config, key)).join(', ');
    warnings.push(`${listed} ${clampKeys.length === 1 ? 'does' : 'do'} nothing with ppo.logprob_clamp=false; set ppo.logprob_clamp=true to clamp the log-probs`);
  }
  if (host.trainsPpo && config.on_nonfinite === 'rollback' && config.ppo.max_nonfinite_skips === 0) {
    warnings.push(`${shown(config, 'on_nonfinite')} does nothing with ppo.max_nonfinite_skips=0, which never stops training on non-finite updates`);
  } else if (host.trainsPpo && !host.autosaves && config.on_nonfinite === 'rollback' && config.checkpoint_every === 0) {
    warnings.push(`${shown(config, 'on_nonfinite')} does nothing with checkpoint_every=0: no checkpoint is saved before the end, so there is none to roll back to`);
  }
  const videoKeys = [...given].filter((key) => key.startsWith('video.'));
  if (!host.recordsVideos && videoKeys.length > 0) {
    const listed = videoKeys.map((key) => shown(config, key)).join(', ');
    warnings.push(`${listed} ${videoKeys.length === 1 ? 'does' : 'do'} nothing on the command line, which records no videos; only the studio records eval videos`);
  }
  const stageKeys = [...given].filter((key) => (['pretrain', 'offline'] as const).some((stage) => key.startsWith(`${stage}.`) && !host.stages.includes(stage)));
  if (stageKeys.length > 0) {
    const listed = stageKeys.map((key) => shown(config, key)).join(', ');
    warnings.push(`${listed} ${stageKeys.length === 1 ? 'does' : 'do'} nothing here; pretrain.* sets stage 1 (npm run pretrain) and offline.* stage 2 (npm run offline)`);
  }
  // A stage evaluates every pretrain.eval_every or offline.eval_every steps on `npm run eval`'s seeds, and trains no PPO.
  const ppoLoopKeys = !host.trainsPpo && host.stages.length > 0 ? [...given].filter((key) => key.startsWith('ppo.') || key.startsWith('eval.')) : [];
  if (ppoLoopKeys.length > 0) {
    const listed = ppoLoopKeys.map((key) => shown(config, key)).join(', ');
    warnings.push(`${listed} ${ppoLoopKeys.length === 1 ? 'does' : 'do'} nothing here; ppo.* and eval.* set PPO fine-tuning (npm run train), and a recipe stage evaluates eval_episodes every ${host.stages.map((stage) => `${stage}.eval_every`).join(' or ')} steps`);
  }
  if (given.has('pretrain.save_every') && host.autosaves) {
    warnings.push(`${shown(config, 'pretrain.save_every')} does nothing in the studio, where a paused stage 1 waits in the page; npm run pretrain saves the state a stopped BC continues from`);
  }
  if (given.has('env.num_points') && config.env.obs_type === 'state') {
    warnings.push(`${shown(config, 'env.num_points')} does nothing with env.obs_type=state; it sizes point-cloud observations only (env.obs_type=pointcloud or depth_pointcloud)`);
  }
  const cameraKeys = (['env.camera', 'env.image_size'] as const).filter((key) => given.has(key));
  if (cameraKeys.length > 0 && !readsCameras(config.env.obs_type)) {
    const listed = cameraKeys.map((key) => shown(config, key)).join(', ');
    warnings.push(`${listed} ${cameraKeys.length === 1 ? 'does' : 'do'} nothing with env.obs_type=${config.env.obs_type}; only depth point clouds and camera images (env.obs_type=depth_pointcloud, rgb or rgbd) render the task's cameras`);
  }
  const encoderKeys = (['policy.cnn_channels', 'policy.image_features', 'policy.image_shift'] as const).filter((key) => given.has(key));
  if (encoderKeys.length > 0 && !isImageObsMode(config.env.obs_type)) {
    const listed = encoderKeys.map((key) => shown(config, key)).join(', ');
    warnings.push(`${listed} ${encoderKeys.length === 1 ? 'does' : 'do'} nothing with env.obs_type=${config.env.obs_type}; image-encoder keys apply to image observations only (env.obs_type=rgb or rgbd)`);
  }
  if (given.has('policy.hidden') && config.policy.velocity_net === 'ditx') {
    warnings.push(`${shown(config, 'policy.hidden')} does nothing with policy.velocity_net=ditx; it sizes the MLP velocity net only (DiT-X takes policy.ditx_dim, ditx_depth and ditx_heads)`);
  }
  if (given.has('policy.hidden') && config.policy.velocity_net === 'unet1d') {
    warnings.push(`${shown(config, 'policy.hidden')} does nothing with policy.velocity_net=unet1d; it sizes the MLP velocity net only (the UNet1D takes policy.unet_dims, unet_kernel and unet_groups)`);
  }
  if (given.has('policy.velocity_net') && config.policy.kind === 'flow' && config.policy.velocity_net === 'reflow_mlp' && config.policy.denoised_clamp !== 1) {
    warnings.push(`policy.velocity_net=reflow_mlp with ${shown(config, 'policy.denoised_clamp')}: ReinFlow's ReFlow.sample clamps every step to [-1, 1], so a policy exported with format=reinflow samples differently there; add policy.denoised_clamp=1 to sample as it does`);
  }
  const ditxKeys = (['policy.ditx_dim', 'policy.ditx_depth', 'policy.ditx_heads'] as const).filter((key) => given.has(key));
  if (ditxKeys.length > 0 && config.policy.velocity_net !== 'ditx') {
    const listed = ditxKeys.map((key) => shown(config, key)).join(', ');
    warnings.push(`${listed} ${ditxKeys.length === 1 ? 'does' : 'do'} nothing with policy.velocity_net=${config.policy.velocity_net}; ${ditxKeys.length === 1 ? 'it sizes' : 'they size'} the DiT-X velocity net only`);
  }
  const unetKeys = (['policy.unet_dims', 'policy.unet_kernel', 'policy.unet_groups'] as const).filter((key) => given.has(key));
  if (unetKeys.length > 0 && config.policy.velocity_net !== 'unet1d') {
    const listed = unetKeys.map((key) => shown(config, key)).join(', ');
    warnings.push(`${listed} ${unetKeys.length === 1 ? 'does' : 'do'} nothing with policy.velocity_net=${config.policy.velocity_net}; ${unetKeys.length === 1 ? 'it sizes' : 'they size'} the UNet1D velocity net only`);
  }
  if (given.has('policy.obs_clip') && config.policy.kind === 'gaussian') {
    warnings.push(`${shown(config, 'policy.obs_clip')} does nothing with policy.kind=gaussian, whose running observation normalization clips at ±ppo.norm_clip instead`);
  }
  warnings.push(...policyKindWarnings(config, given), ...rewardClipWarnings(config, given));
  return warnings;
}

/** Keys that size or drive only the flow policy (DESIGN.md §3) or only the Gaussian baseline. */
const FLOW_ONLY_PREFIXES = ['noise.', 'policy.denoise', 'policy.history_spacing', 'policy.velocity_net', 'policy.hidden', 'policy.encoder_hidden', 'policy.ditx_', 'policy.unet_', 'policy.value_on', 'policy.detach_critic_input', 'policy.freeze_encoder', 'policy.value_hidden', 'policy.noise_head_hidden', 'ppo.bc_coef', 'ppo.logprob_'];
const GAUSSIAN_ONLY_KEYS: readonly ConfigKey[] = ['policy.gaussian_hidden', 'policy.init_log_std', 'policy.running_obs_norm'];

/** Keys a diffusion policy does not read: its exploration is DPPO's std floor, its critic reads the observation, its step stds are fixed. */
const DIFFUSION_IDLE_PREFIXES = ['noise.', 'policy.value_on', 'policy.noise_head_hidden', 'policy.gaussian_hidden', 'policy.init_log_std', 'policy.running_obs_norm', 'ppo.entropy_coef', 'ppo.dual_clip'];
/** Keys only a diffusion policy reads. */
const DIFFUSION_ONLY_PREFIXES = ['dppo.', 'policy.ddim_steps'];

function diffusionWarnings(config: RunConfig, given: ReadonlySet<ConfigKey>): string[] {
  const diffusion = config.policy.kind === 'diffusion';
  const idle = [...given].filter((key) => (diffusion ? DIFFUSION_IDLE_PREFIXES : DIFFUSION_ONLY_PREFIXES).some((prefix) => key.startsWith(prefix)));
  if (idle.length === 0) return [];
  const listed = idle.map((key) => shown(config, key)).join(', ');
  const verb = idle.length === 1 ? 'does' : 'do';
  return [diffusion
    ? `${listed} ${verb} nothing with policy.kind=diffusion: DPPO explores with dppo.min_sampling_std on fixed step stds and its critic reads the observation`
    : `${listed} ${verb} nothing with policy.kind=${config.policy.kind}; ${idle.length === 1 ? 'it applies' : 'they apply'} to diffusion policies only (policy.kind=diffusion)`];
}

function policyKindWarnings(config: RunConfig, given: ReadonlySet<ConfigKey>): string[] {
  const kind = config.policy.kind;
  const diffusion = diffusionWarnings(config, given);
  if (kind === 'diffusion') return diffusion;
  const idle = kind === 'gaussian'
    ? [...given].filter((key) => FLOW_ONLY_PREFIXES.some((prefix) => key.startsWith(prefix)))
    : GAUSSIAN_ONLY_KEYS.filter((key) => given.has(key));
  if (idle.length === 0) return diffusion;
  const listed = idle.map((key) => shown(config, key)).join(', ');
  const verb = idle.length === 1 ? 'does' : 'do';
  return [...diffusion, kind === 'gaussian'
    ? `${listed} ${verb} nothing with policy.kind=gaussian; ${idle.length === 1 ? 'it applies' : 'they apply'} to flow policies only`
    : `${listed} ${verb} nothing with policy.kind=flow; ${idle.length === 1 ? 'it applies' : 'they apply'} to the Gaussian policy only (policy.kind=gaussian)`];
}

/** ppo.norm_clip clips the scaled rewards, and only the Gaussian policy's observations besides. */
function rewardClipWarnings(config: RunConfig, given: ReadonlySet<ConfigKey>): string[] {
  if (!given.has('ppo.norm_clip') || rewardNormOn(config) || config.policy.kind === 'gaussian') return [];
  return [`${shown(config, 'ppo.norm_clip')} does nothing without reward scaling (ppo.reward_norm=${config.ppo.reward_norm} with policy.kind=${config.policy.kind}); set ppo.reward_norm=true`];
}
