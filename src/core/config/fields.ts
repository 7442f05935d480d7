/**
 * Runtime field table for RunConfig: doc string (UI tooltip), kind, default and
 * bounds. Object order is display order. Defaults follow the references:
 * Flow-SDE hybrid with a = 0.5 and K = 4 (RLinf/πRL, reference 004), learnable
 * noise σ in [0.08, 0.16] (004), γ 0.99, λ 0.95, clip 0.2, lr 3e-5 / 1e-4 and
 * critic warm-up (ReinFlow, reference 003). The pretrain.* and offline.* defaults are
 * the recipe's stages as `npm run pretrain` and `npm run offline` have always run them.
 */
import { defaultTaskName, hasDefaultTask, taskNames } from '../envs/task-registry';
import { describeRange, formatInterval, type NumericRange } from './numeric-range';
import type { ConfigGroup, ConfigKey, ConfigValue } from './run-config';

interface FieldBase {
  /** One line, shown as a tooltip and in `help`. */
  readonly doc: string;
}
export interface IntFieldSpec extends FieldBase {
  readonly kind: 'int';
  readonly default: number;
  readonly min: number;
  readonly max: number;
}
export interface NumberFieldSpec extends FieldBase {
  readonly kind: 'number';
  readonly default: number;
  readonly min: number;
  readonly max: number;
  /** When true the bound itself is not allowed. */
  readonly minExclusive?: boolean;
  readonly maxExclusive?: boolean;
}
export interface EnumFieldSpec<V extends string = string> extends FieldBase {
  readonly kind: 'enum';
  readonly values: readonly V[];
  readonly default: V;
}
export interface BoolFieldSpec extends FieldBase {
  readonly kind: 'bool';
  readonly default: boolean;
}
export interface IntListFieldSpec extends FieldBase {
  readonly kind: 'int-list';
  readonly default: readonly number[];
  /** Bounds of each element. */
  readonly min: number;
  readonly max: number;
  readonly minLength: number;
  readonly maxLength: number;
}
/** A plain name (a task, a task's control): letters, digits, '_', '-', '.'; the registry checks it names something. */
export interface NameFieldSpec extends FieldBase {
  readonly kind: 'name';
  readonly default: string;
  /** The names known now, for help text (the registry's tasks). */
  readonly known?: () => readonly string[];
  /** True when the value is one or more names separated by commas. */
  readonly list?: boolean;
}
export type FieldSpec = IntFieldSpec | NumberFieldSpec | EnumFieldSpec | BoolFieldSpec | IntListFieldSpec | NameFieldSpec;

/** What a name field accepts. */
export const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** What a name-list field accepts: plain names joined by commas, at most 8. */
export const PLAIN_NAME_LIST = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(,[A-Za-z0-9][A-Za-z0-9_.-]{0,63}){0,7}$/;

type SpecFor<V> = [V] extends [number[]] ? IntListFieldSpec
  : [V] extends [number] ? IntFieldSpec | NumberFieldSpec
    : [V] extends [boolean] ? BoolFieldSpec
      : [V] extends [string] ? (string extends V ? NameFieldSpec : EnumFieldSpec<V>) : never;

const MAX_INT = 2_147_483_647;
const int = (doc: string, defaultValue: number, min: number, max: number): IntFieldSpec =>
  ({ kind: 'int', doc, default: defaultValue, min, max });
const num = (doc: string, defaultValue: number, min: number, max: number, exclusive: { min?: boolean; max?: boolean } = {}): NumberFieldSpec =>
  ({ kind: 'number', doc, default: defaultValue, min, max, minExclusive: exclusive.min ?? false, maxExclusive: exclusive.max ?? false });
const choice = <V extends string>(doc: string, values: readonly V[], defaultValue: V): EnumFieldSpec<V> =>
  ({ kind: 'enum', doc, values, default: defaultValue });
const bool = (doc: string, defaultValue: boolean): BoolFieldSpec => ({ kind: 'bool', doc, default: defaultValue });
/** A name field whose default is read when asked for (the task default is the hosts' registration). */
const name = (doc: string, defaultValue: () => string, known?: () => readonly string[]): NameFieldSpec => ({ kind: 'name', doc, get default() { return defaultValue(); }, known });
/** A comma-separated list of plain names (a task's cameras), as one string. */
const nameList = (doc: string, defaultValue: string): NameFieldSpec => ({ kind: 'name', doc, default: defaultValue, list: true });
const intList = (doc: string, defaultValue: readonly number[], min: number, max: number, maxLength = 8, minLength = 1): IntListFieldSpec =>
  ({ kind: 'int-list', doc, default: defaultValue, min, max, minLength, maxLength });

/** Every config field; the mapped type makes the table complete and type-consistent with RunConfig. */
export const CONFIG_FIELDS: { readonly [K in ConfigKey]: SpecFor<ConfigValue<K>> } = {
  task: name('Task to train on: a built-in or a task you loaded (DESIGN.md §5, §13).', () => (hasDefaultTask() ? defaultTaskName() : ''), taskNames),
  accept_task_version: bool('Accept a checkpoint recorded on another version of the task (its scene or module changed since); refused by default.', false),
  seed: int('Base seed for sampling, env resets and minibatch shuffles.', 0, 0, MAX_INT),
  num_envs: int('Parallel environments per rollout (ReinFlow 003 uses 16).', 16, 1, 4096),
  iterations: int('PPO iterations (rollout + update); 0 = set by total_env_steps. With both set, the smaller budget wins.', 0, 0, 10_000_000),
  total_env_steps: int('Env-step budget of the run (1M in references 000 and 003); 0 = set by iterations.', 1_000_000, 0, 1_000_000_000_000),
  actor_lr: num('Actor learning rate (3e-5 in ReinFlow 003).', 3e-5, 0, 1),
  critic_lr: num('Critic learning rate (1e-4 in references 003 and 004).', 1e-4, 0, 1),
  eval_episodes: int('Episodes per deterministic evaluation, on fixed seeds from eval.seed.', 20, 0, 100_000),
  on_nonfinite: choice(
    'After ppo.max_nonfinite_skips non-finite updates in a row: pause with an error, or roll back to the last saved checkpoint with half the actor lr and go on (at most 4 times).',
    ['pause', 'rollback'], 'pause',
  ),
  checkpoint_every: int('Save a checkpoint every this many iterations; 0 = only at the end.', 10, 0, 1_000_000),

  'policy.kind': choice('Policy family: flow (flow matching, DESIGN.md §3), diffusion (DPPO\'s ε-prediction DDPM with its cosine schedule over policy.denoise_steps steps, §17; see preset=dppo) or gaussian (a tanh MLP with a state-independent std, the Gaussian PPO baseline of CleanRL\'s ppo_continuous_action; needs policy.horizon=1 and policy.n_action_steps=1, see preset=gaussian-ppo).', ['flow', 'diffusion', 'gaussian'], 'flow'),
  'policy.ddim_steps': int('Diffusion policy: DDIM steps on DPPO\'s leading grid t = i·T/S (η = 0, deterministic; must divide into policy.denoise_steps); 0 = the DDPM chain. Sampling, evaluation, fine-tuning and ONNX export all use it.', 0, 0, 128),
  'policy.gaussian_hidden': intList('Hidden widths of the Gaussian policy\'s actor and critic, tanh ([64, 64] in CleanRL).', [64, 64], 1, 8192),
  'policy.init_log_std': num('Initial log std of the Gaussian policy (0 in CleanRL).', 0, -5, 2),
  'policy.denoise_steps': int('K, denoising steps per chunk (4 in RLinf 004; 8 in ReinFlow 003); at least 2 with noise.method=cps.', 4, 1, 128),
  'policy.horizon': int('H, actions predicted per chunk.', 8, 1, 128),
  'policy.n_action_steps': int('Actions executed per chunk (≤ horizon); one chunk is one PPO decision.', 4, 1, 128),
  'policy.denoised_clamp': num(
    'c > 0 clamps every denoising step\'s mean to [−c, c] (normalized action units) in every chain the policy runs: training samples and their log-prob, evaluation, the BC regularizer and ONNX export; ReinFlow 003\'s denoised_clip_value (1 in its configs). 0 = off. A checkpoint keeps its value.',
    0, 0, 100),
  'policy.n_obs_steps': int('Observation history length (2 in ManiFlow 000).', 2, 1, 16),
  'policy.history_spacing': choice(
    'Observation history in rollouts and eval: step = the last n_obs_steps control steps, as BC stacks demos; decision = one frame per decision (n_action_steps apart).',
    ['step', 'decision'], 'step'),
  'policy.velocity_net': choice(
    "Velocity net: residual MLP, a small DiT-X transformer, reflow_mlp, ReinFlow's FlowMLP layout (what an imported ReinFlow .pt holds; fresh ones take its Gym hopper layout: ReLU residual MLP, time embedding 16, Mish residual critic, Tanh noise net), or unet1d, Diffusion Policy's conditional temporal UNet over the horizon (sized by policy.unet_*).",
    ['mlp', 'ditx', 'reflow_mlp', 'unet1d'], 'mlp'),
  'policy.hidden': intList('Hidden widths of the MLP velocity net.', [256, 256, 256], 1, 8192),
  'policy.encoder_hidden': intList('Hidden widths of the observation encoder (state MLP or per-point MLP); empty (`policy.encoder_hidden=`) feeds the state as it is, as ReinFlow\'s FlowMLP without a cond_mlp.', [256, 256], 1, 8192, 8, 0),
  'policy.ditx_dim': int('Token width of the DiT-X velocity net.', 128, 8, 4096),
  'policy.ditx_depth': int('Transformer blocks in DiT-X.', 4, 1, 48),
  'policy.ditx_heads': int('Attention heads in DiT-X (must divide policy.ditx_dim).', 4, 1, 64),
  'policy.unet_dims': intList('UNet1D channel widths, one per level (Diffusion Policy: 256,512,1024; DPPO\'s image UNet: 40,80); the horizon halves between levels, so policy.horizon must be a multiple of 2^(levels − 1).', [32, 64], 2, 1024, 4),
  'policy.unet_kernel': int('UNet1D conv kernel size, odd (5 in Diffusion Policy).', 5, 1, 15),
  'policy.unet_groups': int('UNet1D GroupNorm groups (8 in Diffusion Policy); must divide every width of policy.unet_dims.', 8, 1, 64),
  'policy.value_on': choice('Value head input: obs features (V_vlm, default) or velocity-net features averaged over steps (V_expert), reference 004.', ['obs', 'expert'], 'obs'),
  'policy.detach_critic_input': bool('Stop critic gradients at the shared trunk (reference 004); on by default, since the value loss is far larger than the policy loss and would otherwise reshape the policy\'s features.', true),
  'policy.freeze_encoder': choice(
    'Keep the observation encoder fixed during PPO (ReinFlow\'s freeze_visual_encoder); its features are then computed once per decision at rollout time and stored, so minibatches never re-encode point clouds or images. auto: on for point clouds, off for state and camera images.',
    ['auto', 'true', 'false'], 'auto'),
  'policy.cnn_channels': intList('Image observations: output channels of the image encoder\'s 3×3 stride-2 convolutions, one layer each (ReLU after each).', [16, 32, 32], 1, 1024, 6, 1),
  'policy.image_features': int('Image observations: features per camera after the image encoder\'s projection and LayerNorm.', 64, 1, 4096),
  'policy.image_shift': int('Image observations: random-shift augmentation in BC and PPO updates (DrQ): pad by this many pixels, edges replicated, and crop back at a random offset per image; 0 = off. Never in rollouts or evaluation.', 4, 0, 32),
  'policy.value_hidden': intList('Hidden widths of the value head.', [256, 256], 1, 8192),
  'policy.running_obs_norm': bool('Gaussian policy: normalize observations by their running mean and std and clip to ±ppo.norm_clip (CleanRL\'s NormalizeObservation); statistics freeze at evaluation.', true),
  'policy.obs_clip': num(
    'Flow and diffusion policies: c > 0 clamps every normalized observation value to [−c, c] wherever the policy reads one (rollouts, the critic, evaluation, ONNX export), as DPPO\'s clamp_obs does with c = 1. A state far outside the demos\' range (an object knocked off the table) then stays in the range the critic was fitted on. 0 = off. Saved with the observation normalizer; a checkpoint keeps its value unless this is given.',
    0, 0, 1000),
  'policy.noise_head_hidden': intList('Hidden widths of the learnable noise head ([128, 64] in reference 004).', [128, 64], 1, 8192),

  'noise.method': choice('Exploration: ode (none), sde (Flow-SDE), cps, or noise (learnable noise head), DESIGN.md §3.', ['ode', 'sde', 'cps', 'noise'], 'sde'),
  'noise.level': num('a, the Flow-SDE / CPS noise level (0.5 in RLinf 004); σ_i = a·sqrt(t_i/(1−t_i)); above 0 for sde, in (0, 1] for cps.', 0.5, 0, 5),
  'noise.std_min': num('Lower std bound of the noise head (0.08 in RLinf 004; 0.01 in ReinFlow 003).', 0.08, 0, 2, { min: true }),
  'noise.std_max': num('Upper std bound of the noise head at the start (0.16 in RLinf 004; 0.3 in ReinFlow 003).', 0.16, 0, 2, { min: true }),
  'noise.mode': choice('hybrid: one random step per chain is stochastic (default for SDE); joint: every step, plus the x_0 density, the log-prob averaged over the K + 1 terms (cps\'s std-0 last step counts as one, as in RLinf 004).', ['hybrid', 'joint'], 'hybrid'),
  'noise.logprob_type': choice(
    'Log-prob unit: token keeps [chunk, A], action sums over A, chunk sums over chunk × A (RLinf 004 uses chunk), each over the executed steps; mean averages over the whole horizon × A and the chain\'s terms, the log-prob of a joint chain divided by (K + 1)·H·A (ReinFlow 003\'s scale, which its clip ε is set for).',
    ['token', 'action', 'chunk', 'mean'], 'chunk'),
  'noise.decay': choice('Schedule of σ_max toward σ_min and of level toward level_min (ReinFlow 003; cosine runs after hold_steps).', ['constant', 'linear', 'exponential', 'cosine'], 'constant'),
  'noise.decay_steps': int('Env steps over which the noise decays (500k in ReinFlow 003).', 500_000, 0, 1_000_000_000_000),
  'noise.hold_steps': int('Env steps held at the start value before a cosine decay.', 0, 0, 1_000_000_000_000),
  'noise.level_min': num('Noise level reached at the end of a non-constant decay; with sde or cps it is a level too, above 0 and at most noise.level.', 0.1, 0, 5),

  'ppo.clip_low': num('ε_low: the ratio is clipped below at 1 − ε_low (0.2 in all references).', 0.2, 0, 1, { min: true, max: true }),
  'ppo.clip_high': num('ε_high: the ratio is clipped above at 1 + ε_high.', 0.2, 0, 10, { min: true }),
  'ppo.dual_clip': num('Dual-clip constant c > 1 bounding the loss for negative advantages (3 is common); 0 = off.', 0, 0, 100),
  'ppo.logprob_clamp': bool(
    'Clamp the new and the stored log-prob units to [ppo.logprob_min, ppo.logprob_max] before the ratio, as ReinFlow 003 does (a unit outside then passes no gradient); the bounds apply to the noise.logprob_type unit, so set them for its scale.',
    false),
  'ppo.logprob_min': num('Lower end of the log-prob clamp (ppo.logprob_clamp; -1 in ReinFlow 003\'s configs, with its mean log-prob unit).', -1, -1e6, 1e6),
  'ppo.logprob_max': num('Upper end of the log-prob clamp (ppo.logprob_clamp; 1 in ReinFlow 003\'s configs); above ppo.logprob_min.', 1, -1e6, 1e6),
  'ppo.value_clip': num('Clip the new value to old ± this; 0 = off.', 0, 0, 1e6),
  'ppo.value_loss': choice('Critic loss (RLinf 004 uses huber).', ['mse', 'huber'], 'huber'),
  'ppo.huber_delta': num('Huber transition point.', 10, 0, 1e6, { min: true }),
  'ppo.entropy_coef': num('Entropy bonus weight (0 in ManiFlow 000; 0.01 in ReinFlow 003 for learnable noise).', 0, 0, 10),
  'ppo.value_coef': num('Critic loss weight (0.5 in references 000 and 003).', 0.5, 0, 100),
  'ppo.epochs': int('Passes over each rollout (4 in all references).', 4, 1, 100),
  'ppo.minibatch_size': int('Decisions per minibatch (a diffusion policy: denoising-step samples, decisions × dppo.ft_denoising_steps); must divide num_envs × env.steps_per_iteration (64 in ReinFlow 003).', 64, 1, 1_000_000),
  'ppo.max_grad_norm': num('Global gradient-norm clip (0.5 in ManiFlow 000); 0 = off.', 0.5, 0, 1e6),
  'ppo.target_kl': num('Stop the epoch loop once approx_kl exceeds this (0.01 in ManiFlow 000); 0 = off.', 0, 0, 10),
  'ppo.kl_adapt': num('Adapt the actor lr to this KL: after each update whose mean approx_kl is above 2× it the lr is divided by 1.5, below ½ of it multiplied by 1.5, kept within [actor_lr/100, actor_lr×10] (rsl_rl\'s adaptive schedule); the factor multiplies the ppo.lr_schedule; 0 = off.', 0, 0, 10),
  'ppo.critic_warmup_steps': int('Env steps at the start during which only the critic trains (5000 in ReinFlow 003).', 5000, 0, 1_000_000_000_000),
  'ppo.lr_schedule': choice('Learning-rate schedule over the run, after warm-up.', ['constant', 'linear', 'cosine'], 'constant'),
  'ppo.warmup_steps': int('Env steps of linear learning-rate warm-up from 0.', 0, 0, 1_000_000_000_000),
  'ppo.optimizer': choice('Optimizer for actor and critic.', ['adam', 'adamw'], 'adam'),
  'ppo.weight_decay': num('Decoupled weight decay; applies with ppo.optimizer=adamw only.', 0, 0, 1),
  'ppo.adam_eps': num('Adam epsilon.', 1e-5, 0, 1, { min: true }),
  'ppo.max_nonfinite_skips': int('Non-finite updates skipped in a row before training pauses with an error.', 3, 0, 1000),
  'ppo.bc_coef': num('Weight of the BC regularizer: mean squared distance between the deterministic ODE actions of the policy and of the frozen policy the run started from, from the same x_0 (ReinFlow); a diffusion policy: DPPO\'s BC term, minus the fine-tuned net\'s mean log-prob of the base net\'s own chains; 0 = off.', 0, 0, 1e6),
  'ppo.reward_norm': choice('Running reward scaling: divide each reward (a flow or diffusion policy: each decision\'s chunk reward, as ReinFlow\'s and DPPO\'s reward_scale_running) by the running std of the discounted return and clip to ±ppo.norm_clip (CleanRL\'s NormalizeReward); logged returns stay raw. auto: on for the Gaussian and diffusion policies, off for flow policies.', ['auto', 'true', 'false'], 'auto'),
  'ppo.norm_clip': num('Clip of the scaled rewards (ppo.reward_norm), and for the Gaussian policy of its normalized observations too (10 in CleanRL).', 10, 0, 1e6, { min: true }),

  'dppo.ft_denoising_steps': int('Diffusion policy: K\', the last K\' denoising steps (or DDIM steps) are fine-tuned, each its own PPO sample; the earlier ones run the frozen base net (10 of 20 in DPPO\'s Gym configs).', 10, 1, 128),
  'dppo.gamma_denoising': num('Diffusion policy: γ_denoise, fine-tuned step k\'s advantage is discounted by γ_denoise^(K\' − k − 1) (0.99 in DPPO).', 0.99, 0, 1, { min: true }),
  'dppo.clip_base': num('Diffusion policy: ratio clip of the noisiest fine-tuned step; it grows to ppo.clip_low/clip_high at the last step (0.01 in DPPO\'s Gym configs).', 0.01, 0, 1),
  'dppo.clip_rate': num('Diffusion policy: rate r of the per-step clip schedule ε_base + (ε − ε_base)·(e^{r·k/(K\'−1)} − 1)/(e^r − 1) (3 in DPPO).', 3, 0, 50, { min: true }),
  'dppo.min_sampling_std': num('Diffusion policy: std floor of every stochastic denoising step in rollouts, DPPO\'s exploration (0.1 in its Gym configs); applies from the next rollout.', 0.1, 0, 10),
  'dppo.min_logprob_std': num('Diffusion policy: std floor of the fine-tuned steps\' densities in the loss (0.1 in DPPO\'s Gym configs).', 0.1, 0, 10, { min: true }),
  'dppo.randn_clip': num('Diffusion policy: every denoising step\'s noise z is clipped to ±this before std·z (DPPO\'s randn_clip_value: 10 by default, 3 in its Gym fine-tune configs).', 10, 0, 100, { min: true }),
  'dppo.adv_quantile_low': num('Diffusion policy: normalized advantages are clipped below at this quantile of the minibatch (0 = off).', 0, 0, 1),
  'dppo.adv_quantile_high': num('Diffusion policy: normalized advantages are clipped above at this quantile of the minibatch (1 = off); above dppo.adv_quantile_low.', 1, 0, 1),
  'advantages.type': choice('Estimator: gae, mc (Monte Carlo), nstep, or grpo (group-normalized episode return), DESIGN.md §4.', ['gae', 'mc', 'nstep', 'grpo'], 'gae'),
  'advantages.gamma': num('Discount per env step (0.99 in all references).', 0.99, 0, 1),
  'advantages.lambda': num('GAE λ (0.95 in all references).', 0.95, 0, 1),
  'advantages.n_steps': int('Decisions looked ahead by the n-step estimator.', 5, 1, 100_000),
  'advantages.group_size': int('Envs per GRPO group, sharing a reset seed; must divide num_envs.', 8, 2, 4096),
  'advantages.normalize': bool('Normalize advantages over valid entries (gae, mc, nstep); grpo advantages are group-normalized only, never again over the batch (as in RLinf 004).', true),
  'advantages.truncation': choice('A time-limit truncation: bootstrap (value its last step with V(final_obs), DESIGN.md §4) or terminate (value it 0, as CleanRL\'s ppo_continuous_action does).', ['bootstrap', 'terminate'], 'bootstrap'),
  'advantages.grpo_filter': bool('With advantages.type=grpo, drop groups whose finished episodes all succeeded or all failed (RLinf); logs advantages/grpo_kept_fraction.', false),

  'env.control_mode': name('Action space: a control of the task by name, or default for the task\'s default control (another name is refused, listing the task\'s controls).', () => 'default'),
  'env.obs_type': choice(
    'Observation: state vector; points sampled on the scene\'s geoms plus proprioception (pointcloud); points from the task\'s depth cameras, cropped to its workspace, plus proprioception (depth_pointcloud); or camera images, rgb or rgb plus a depth byte (rgbd), plus proprioception.',
    ['state', 'pointcloud', 'depth_pointcloud', 'rgb', 'rgbd'], 'state',
  ),
  'env.reward': choice('Reward: dense (shaped) or sparse (success only).', ['dense', 'sparse'], 'dense'),
  'env.num_points': int('Points per point-cloud observation (a point-cloud checkpoint fixes its own).', 256, 16, 65_536),
  'env.camera': nameList('depth_pointcloud, rgb and rgbd: the task\'s cameras (<camera> names in its MJCF), comma-separated, their clouds fused or their images in this order; default = the scene\'s first camera (a checkpoint fixes its own).', 'default'),
  'env.image_size': int('depth_pointcloud, rgb and rgbd: side of each camera\'s square image in pixels, one ray per pixel (frames per second fall with its square; a checkpoint fixes its own).', 64, 4, 512),
  'env.workers': int('Env worker threads, at most num_envs; 0 = one per available core.', 0, 0, 256),
  'env.steps_per_iteration': int('Decisions (chunks) per env per rollout (128 in ReinFlow 003).', 32, 1, 100_000),
  'env.max_episode_steps': int('Episode length cap in env steps; 0 = the task default.', 0, 0, 1_000_000),
  'env.auto_reset': bool('Reset an env as soon as it is done; off masks the rest of its rollout.', true),

  'eval.every': int('Evaluate every this many iterations; 0 = off.', 10, 0, 1_000_000),
  'eval.seed': int('First of the fixed evaluation seeds (kept apart from training seeds).', 1_000_000, 0, MAX_INT),
  'eval.record_episodes': int('Evaluation episodes whose qpos is kept for replay and video.', 2, 0, 1000),

  'video.every': int('Record eval videos at evaluations whose iteration is a multiple of this (a multiple of eval.every); 0 = at every evaluation.', 0, 0, 1_000_000),
  'video.episodes': int('Eval episodes rendered to WebM at each recording, up to eval.record_episodes; 0 = no videos.', 2, 0, 100),

  'pretrain.steps': int('Stage 1 (flow BC from demos): Adam steps.', 3000, 1, 10_000_000),
  'pretrain.batch_size': int('Stage 1: demo samples (observation, action chunk) per step.', 256, 1, 65_536),
  'pretrain.lr': num('Stage 1: Adam learning rate of the encoder and velocity net.', 1e-3, 1e-7, 1),
  'pretrain.ema': num('Stage 1: EMA decay of the weights kept at the end; 0 = the raw weights.', 0.995, 0, 0.99999),
  'pretrain.shortcut': num('Stage 1: fraction of each batch on the shortcut self-consistency target; applies when the policy has the step-size input (0 without it).', 0.25, 0, 1),
  'pretrain.episodes': int('Stage 1: learn from the first N demo episodes only; 0 = all.', 0, 0, 1_000_000),
  'pretrain.eval_every': int('Stage 1: evaluate eval_episodes on npm run eval\'s seeds every this many steps, and at the end; 0 = only at the end.', 0, 0, 10_000_000),
  'pretrain.save_every': int('Stage 1 on the command line: save the state a stopped BC continues from (OUT.resume, for resume=true) every this many steps; 0 = never.', 500, 0, 10_000_000),

  'offline.rollouts': int('Stage 2 (advantage-weighted BC): episodes of the stage-1 policy rolled out with the stochastic sampler; 0 = the demos only.', 32, 0, 100_000),
  'offline.rollout_seed': int('Stage 2: rollout episode e resets with rollout_seed + e (apart from demo and eval seeds).', 2_000_000, 0, 2 ** 30),
  'offline.beta': num('Stage 2: temperature on advantages standardized over the dataset, w = min(exp(Â/β), w_max); large is plain BC.', 1, 1e-3, 1e3),
  'offline.w_max': num('Stage 2: cap on exp(Â/β) before the weights are scaled to mean 1 (20, as AWR).', 20, 1, 1e6),
  'offline.critic_steps': int('Stage 2: Adam steps fitting the value MLP to the returns-to-go.', 500, 1, 10_000_000),
  'offline.critic_folds': int('Stage 2: cross-fitting; with k > 1 each episode\'s baseline comes from a critic fit on the other folds; 1 = one critic on every sample.', 1, 1, 16),
  'offline.critic_hidden': intList('Stage 2: hidden widths of the value MLP.', [256, 256], 1, 8192),
  'offline.critic_batch_size': int('Stage 2: samples per critic step.', 256, 1, 65_536),
  'offline.critic_lr': num('Stage 2: Adam learning rate of the critic.', 1e-3, 1e-7, 1),
  'offline.steps': int('Stage 2: weighted flow BC Adam steps.', 1000, 1, 10_000_000),
  'offline.batch_size': int('Stage 2: samples per weighted BC step, drawn from demos ∪ rollouts.', 256, 1, 65_536),
  'offline.lr': num('Stage 2: Adam learning rate of the weighted BC.', 3e-4, 1e-7, 1),
  'offline.ema': num('Stage 2: EMA decay of the kept weights, starting from the stage-1 weights; 0 = the raw weights.', 0.995, 0, 0.99999),
  'offline.shortcut': num('Stage 2: fraction of each batch on the shortcut self-consistency target; applies when the policy has the step-size input (0 without it).', 0.25, 0, 1),
  'offline.episodes': int('Stage 2: use the first N demo episodes only (as pretrain.episodes); 0 = all.', 0, 0, 1_000_000),
  'offline.eval_every': int('Stage 2: evaluate eval_episodes on npm run eval\'s seeds every this many steps, at the start and at the end; 0 = start and end only.', 0, 0, 10_000_000),
};

/** Config keys in table order. */
export const CONFIG_KEYS: readonly ConfigKey[] = Object.keys(CONFIG_FIELDS) as ConfigKey[];

const KEY_SET: ReadonlySet<string> = new Set(CONFIG_KEYS);

/** True when `key` names a config field. */
export function isConfigKey(key: string): key is ConfigKey {
  return KEY_SET.has(key);
}

/** The field spec of a key (widened for generic code). */
export function fieldSpec(key: ConfigKey): FieldSpec {
  return CONFIG_FIELDS[key] as FieldSpec;
}

/** 'run' for top-level keys, else the section before the dot. */
export function fieldGroup(key: ConfigKey): ConfigGroup {
  const dot = key.indexOf('.');
  return dot < 0 ? 'run' : (key.slice(0, dot) as ConfigGroup);
}

/** The table's bounds of a numeric field (of each element, for a list), whatever the rest of the config holds. */
export function tableRange(spec: IntFieldSpec | NumberFieldSpec | IntListFieldSpec): NumericRange {
  const number = spec.kind === 'number';
  return {
    min: spec.min, max: spec.max, integer: !number,
    minExclusive: number && (spec.minExclusive ?? false), maxExclusive: number && (spec.maxExclusive ?? false),
  };
}

/** Human text for a field's allowed values, used in error messages and tooltips. */
export function describeAllowed(spec: FieldSpec): string {
  switch (spec.kind) {
    case 'enum':
      return `one of ${spec.values.join(', ')}`;
    case 'bool':
      return 'one of true, false';
    case 'int':
    case 'number':
      return describeRange(tableRange(spec));
    case 'int-list':
      return `a comma-separated list of ${spec.minLength}–${spec.maxLength} integers in ${formatInterval(tableRange(spec))}`;
    case 'name': {
      if (spec.list) return "one or more names of letters, digits, '_', '-' and '.' separated by commas (at most 8)";
      const known = spec.known?.() ?? [];
      return known.length > 0 ? `a name such as ${known.join(', ')}` : "a name of letters, digits, '_', '-' and '.' (at most 64)";
    }
  }
}
