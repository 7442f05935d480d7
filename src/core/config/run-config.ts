/**
 * The typed run config (DESIGN.md §9, §10). Every field has a runtime twin in
 * `CONFIG_FIELDS` (fields.ts) with its doc string, kind, default and bounds.
 * Unit rule: every `*_steps` count of training progress is in env steps,
 * like `total_env_steps`; `eval.every` and `checkpoint_every` are in iterations.
 */


/** Task names come from the task registry's one list. */
/** A registered task's name (DESIGN.md §13): a built-in, or a task a user loaded. */
export type TaskName = string;
export type NoiseMethod = 'ode' | 'sde' | 'cps' | 'noise';

export interface PolicyConfig {
  /** flow: the flow-matching policy of DESIGN.md §3; diffusion: DPPO's ε-prediction DDPM (§17); gaussian: the Gaussian MLP baseline (CleanRL's ppo_continuous_action). */
  kind: 'flow' | 'diffusion' | 'gaussian';
  /** Diffusion policy: DDIM steps on DPPO's leading grid (deterministic at η = 0); 0 = the DDPM chain of policy.denoise_steps. */
  ddim_steps: number;
  /** Hidden widths of the Gaussian policy's actor and critic (tanh). */
  gaussian_hidden: number[];
  /** Initial log std of the Gaussian policy's state-independent std. */
  init_log_std: number;
  /** K, denoising steps per action chunk (DESIGN.md §3). */
  denoise_steps: number;
  /** H, predicted actions per chunk. */
  horizon: number;
  /** Actions executed per chunk (≤ horizon); one chunk is one SMDP decision. */
  n_action_steps: number;
  /** Clamp of each denoising step's mean to [−c, c] in every chain (ReinFlow's denoised_clip_value); 0 = off. */
  denoised_clamp: number;
  /** Observation history length fed to the policy. */
  n_obs_steps: number;
  /** Spacing of the stacked observations in rollouts and evaluation: consecutive control steps (as BC stacks them) or one per decision. */
  history_spacing: 'step' | 'decision';
  /** Velocity net architecture. */
  velocity_net: 'mlp' | 'ditx' | 'reflow_mlp' | 'unet1d';
  /** Hidden widths of the MLP velocity net. */
  hidden: number[];
  /** Hidden widths of the obs encoder (state MLP, or PointNet's per-point MLP). */
  encoder_hidden: number[];
  /** Width of the DiT-X token stream. */
  ditx_dim: number;
  /** DiT-X transformer blocks. */
  ditx_depth: number;
  /** DiT-X attention heads (must divide ditx_dim). */
  ditx_heads: number;
  /** UNet1D channel widths, one per level (the horizon halves between levels). */
  unet_dims: number[];
  /** UNet1D conv kernel size (odd). */
  unet_kernel: number;
  /** UNet1D GroupNorm groups (divide every width). */
  unet_groups: number;
  /** Where the value head reads from: obs features (V_vlm) or velocity-net features (V_expert). */
  value_on: 'obs' | 'expert';
  /** Stop critic gradients at the shared trunk. */
  detach_critic_input: boolean;
  /** Keep the observation encoder fixed during PPO and store its features at rollout time (auto: point clouds only). */
  freeze_encoder: 'auto' | 'true' | 'false';
  /** Output channels of the image encoder's strided convolutions (image observations). */
  cnn_channels: number[];
  /** Features per camera after the image encoder's projection and LayerNorm. */
  image_features: number;
  /** Random-shift augmentation of camera images in BC and PPO updates: pad in pixels; 0 = off. */
  image_shift: number;
  /** Hidden widths of the value head. */
  value_hidden: number[];
  /** Hidden widths of the learnable noise head (noise.method=noise). */
  noise_head_hidden: number[];
  /** Gaussian policy: normalize observations by their running mean and std, clipped to ±ppo.norm_clip. */
  running_obs_norm: boolean;
  /** Flow and diffusion policies: clamp each normalized observation value to ±this bound; 0 = off. Saved with the normalizer. */
  obs_clip: number;
}

export interface NoiseConfig {
  /** Exploration: ode (none), sde (Flow-SDE), cps, noise (learnable noise head). */
  method: NoiseMethod;
  /** a, the SDE / CPS noise level. */
  level: number;
  /** Lower std bound of the noise head, and the floor σ_max decays toward. */
  std_min: number;
  /** Upper std bound of the noise head at the start of training. */
  std_max: number;
  /** hybrid: one stochastic step per chain; joint: every step stochastic. */
  mode: 'hybrid' | 'joint';
  /** Log-prob reduction: token [chunk, A], action (sum over A), chunk (sum over chunk × A), mean (average over horizon × A and the chain's terms). */
  logprob_type: 'token' | 'action' | 'chunk' | 'mean';
  /** Schedule of σ_max (and of level toward level_min). */
  decay: 'constant' | 'linear' | 'exponential' | 'cosine';
  /** Env steps over which the decay runs. */
  decay_steps: number;
  /** Env steps held at the start value before a cosine decay. */
  hold_steps: number;
  /** Final noise level when the decay is not constant. */
  level_min: number;
}

export interface PpoConfig {
  /** ε_low: the ratio is clipped below at 1 − ε_low. */
  clip_low: number;
  /** ε_high: the ratio is clipped above at 1 + ε_high. */
  clip_high: number;
  /** Dual-clip constant c (> 1) for negative advantages; 0 = off. */
  dual_clip: number;
  /** Clamp new and stored log-prob units to [logprob_min, logprob_max] before the ratio (ReinFlow). */
  logprob_clamp: boolean;
  /** Lower end of the log-prob clamp. */
  logprob_min: number;
  /** Upper end of the log-prob clamp. */
  logprob_max: number;
  /** Value clipping range around the old value; 0 = off. */
  value_clip: number;
  /** Critic loss. */
  value_loss: 'mse' | 'huber';
  /** Huber transition point. */
  huber_delta: number;
  /** Entropy bonus weight. */
  entropy_coef: number;
  /** Critic loss weight. */
  value_coef: number;
  /** Passes over each rollout. */
  epochs: number;
  /** Decisions per minibatch. */
  minibatch_size: number;
  /** Global gradient-norm clip; 0 = off. */
  max_grad_norm: number;
  /** Approximate-KL threshold that stops the epoch loop; 0 = off. */
  target_kl: number;
  /** Adapt the actor lr to this KL per update (÷1.5 above 2×, ×1.5 below ½, as rsl_rl does); 0 = off. */
  kl_adapt: number;
  /** Env steps during which only the critic trains. */
  critic_warmup_steps: number;
  /** Learning-rate schedule over the run. */
  lr_schedule: 'constant' | 'linear' | 'cosine';
  /** Env steps of linear lr warm-up. */
  warmup_steps: number;
  /** Optimizer for actor and critic. */
  optimizer: 'adam' | 'adamw';
  /** Decoupled weight decay (adamw only). */
  weight_decay: number;
  /** Adam epsilon. */
  adam_eps: number;
  /** Non-finite updates skipped in a row before training stops. */
  max_nonfinite_skips: number;
  /** Weight of the BC regularizer toward the frozen starting policy's ODE actions; 0 = off. */
  bc_coef: number;
  /** Scale rewards by the running std of the discounted return, clipped to ±norm_clip (CleanRL's NormalizeReward); auto: all but flow policies. */
  reward_norm: 'auto' | 'true' | 'false';
  /** Clip of the Gaussian policy's normalized observations and rewards. */
  norm_clip: number;
}

/** DPPO's fine-tuning of a diffusion policy (DESIGN.md §17). */
export interface DppoConfig {
  /** K': the last K' denoising steps are fine-tuned, each its own PPO sample; earlier steps run the frozen base net. */
  ft_denoising_steps: number;
  /** γ_denoise: step k's advantage is discounted by γ_denoise^(K' − k − 1). */
  gamma_denoising: number;
  /** ε_base: the ratio clip of the noisiest fine-tuned step, growing to ppo.clip_low / clip_high at the last. */
  clip_base: number;
  /** r: the clip grows as (e^{r·k/(K'−1)} − 1)/(e^r − 1). */
  clip_rate: number;
  /** Sampling std floor of every stochastic step (DPPO's exploration). */
  min_sampling_std: number;
  /** Std floor of the fine-tuned steps' densities in the loss. */
  min_logprob_std: number;
  /** Every step noise z is clipped to ±this before std·z (DPPO's randn_clip_value). */
  randn_clip: number;
  /** Advantages are clipped to these quantiles of the minibatch after normalization; 0 and 1 = off. */
  adv_quantile_low: number;
  adv_quantile_high: number;
}

export interface AdvantagesConfig {
  /** Estimator: gae, mc (Monte Carlo), nstep, grpo (group-normalized episode return). */
  type: 'gae' | 'mc' | 'nstep' | 'grpo';
  /** Discount per env step. */
  gamma: number;
  /** GAE λ. */
  lambda: number;
  /** Decisions looked ahead by the n-step estimator. */
  n_steps: number;
  /** Envs per GRPO group (they share a reset seed). */
  group_size: number;
  /** Normalize advantages over valid entries (not grpo's, which are group-normalized only). */
  normalize: boolean;
  /** GRPO: drop groups whose finished episodes all succeeded or all failed. */
  grpo_filter: boolean;
  /** A time-limit truncation: bootstrap from V(final_obs) (DESIGN.md §4), or count it as a termination (CleanRL). */
  truncation: 'bootstrap' | 'terminate';
}

export interface EnvConfig {
  /** Action space: 4-D Cartesian delta or 8-D joint delta. */
  control_mode: string;
  /** Observation: state vector, a point cloud (surface-sampled, or from depth cameras) plus proprioception, or camera images plus proprioception. */
  obs_type: 'state' | 'pointcloud' | 'depth_pointcloud' | 'rgb' | 'rgbd';
  /** Reward shaping. */
  reward: 'dense' | 'sparse';
  /** Points per point-cloud observation. */
  num_points: number;
  /** depth_pointcloud, rgb and rgbd: the task's cameras by name, comma-separated; 'default' = the scene's first camera. */
  camera: string;
  /** depth_pointcloud, rgb and rgbd: each camera's square image side in pixels. */
  image_size: number;
  /** Env worker threads; 0 = one per available core (resolveEnvWorkers). */
  workers: number;
  /** Decisions per env per rollout. */
  steps_per_iteration: number;
  /** Episode length cap in env steps; 0 = the task's own. */
  max_episode_steps: number;
  /** Reset an env as soon as it is done, inside the rollout. */
  auto_reset: boolean;
}

export interface EvalConfig {
  /** Evaluate every this many iterations; 0 = off. */
  every: number;
  /** First of the fixed evaluation seeds. */
  seed: number;
  /** Evaluation episodes whose qpos is kept for replay. */
  record_episodes: number;
}

export interface VideoConfig {
  /** Record eval videos at evaluations whose iteration is a multiple of this; 0 = at every evaluation. */
  every: number;
  /** Eval episodes rendered to video at each recording (at most eval.record_episodes have qpos); 0 = off. */
  episodes: number;
}

/** Stage 1 of the recipe, flow-matching BC from demos (DESIGN.md §3 "Stage 1", §12): `npm run pretrain` and the studio's demos tab. */
export interface PretrainConfig {
  /** Adam steps. */
  steps: number;
  /** Demo samples per step. */
  batch_size: number;
  /** Adam learning rate. */
  lr: number;
  /** EMA decay of the weights kept at the end; 0 = the raw weights. */
  ema: number;
  /** Fraction of each batch on the shortcut self-consistency target (with the policy's step-size input). */
  shortcut: number;
  /** Use only the first N demo episodes; 0 = all. */
  episodes: number;
  /** Evaluate every this many steps, and at the end; 0 = only at the end. */
  eval_every: number;
  /** On the command line, save the state a stopped BC continues from every this many steps; 0 = never. */
  save_every: number;
}

/** Stage 2 of the recipe, advantage-weighted flow BC (DESIGN.md §12): `npm run offline` and the studio's demos tab. */
export interface OfflineConfig {
  /** Episodes of the stage-1 policy rolled out with the stochastic sampler; 0 = demos only. */
  rollouts: number;
  /** Rollout episode e resets with rollout_seed + e. */
  rollout_seed: number;
  /** Temperature β of the weights min(exp(Â/β), w_max). */
  beta: number;
  /** Cap on exp(Â/β) before the weights are scaled to mean 1. */
  w_max: number;
  /** Adam steps fitting the value MLP. */
  critic_steps: number;
  /** Cross-fitting folds of the critic; 1 = one critic on every sample. */
  critic_folds: number;
  /** Hidden widths of the value MLP. */
  critic_hidden: number[];
  /** Samples per critic step. */
  critic_batch_size: number;
  /** Adam learning rate of the critic. */
  critic_lr: number;
  /** Weighted BC Adam steps. */
  steps: number;
  /** Samples per weighted BC step, from demos ∪ rollouts. */
  batch_size: number;
  /** Adam learning rate of the weighted BC. */
  lr: number;
  /** EMA decay of the kept weights, from the stage-1 weights; 0 = the raw weights. */
  ema: number;
  /** Fraction of each batch on the shortcut self-consistency target (with the policy's step-size input). */
  shortcut: number;
  /** Use only the first N demo episodes; 0 = all. */
  episodes: number;
  /** Evaluate every this many steps, and at the end; 0 = only at the end. */
  eval_every: number;
}

export interface RunConfig {
  /** Task to train on. */
  task: TaskName;
  /** Accept a checkpoint made on another version of the task (its scene or module changed). */
  accept_task_version: boolean;
  /** Base seed for sampling, env resets and shuffles. */
  seed: number;
  /** Parallel environments. */
  num_envs: number;
  /** PPO iterations (rollout + update); 0 = set by total_env_steps. */
  iterations: number;
  /** Env-step budget; 0 = set by iterations. */
  total_env_steps: number;
  /** Actor learning rate. */
  actor_lr: number;
  /** Critic learning rate. */
  critic_lr: number;
  /** Episodes per evaluation. */
  eval_episodes: number;
  /** Save a checkpoint every this many iterations; 0 = only at the end. */
  checkpoint_every: number;
  /** What a run does after ppo.max_nonfinite_skips non-finite updates in a row. */
  on_nonfinite: 'pause' | 'rollback';
  policy: PolicyConfig;
  noise: NoiseConfig;
  ppo: PpoConfig;
  dppo: DppoConfig;
  advantages: AdvantagesConfig;
  env: EnvConfig;
  eval: EvalConfig;
  video: VideoConfig;
  pretrain: PretrainConfig;
  offline: OfflineConfig;
}

type Leaf = number | string | boolean | number[];

/** Every dotted key of T that names a leaf field, e.g. 'seed' | 'ppo.clip_low'. */
type LeafPaths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends Leaf ? `${Prefix}${K}` : LeafPaths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A config key, e.g. 'num_envs' or 'noise.method'. */
export type ConfigKey = LeafPaths<RunConfig>;

/** The value type at a dotted key. */
export type ConfigValue<K extends string, T = RunConfig> =
  K extends `${infer Head}.${infer Rest}` ? (Head extends keyof T ? ConfigValue<Rest, T[Head]> : never)
    : K extends keyof T ? T[K] : never;

export type ConfigSection = 'policy' | 'noise' | 'ppo' | 'dppo' | 'advantages' | 'env' | 'eval' | 'video' | 'pretrain' | 'offline';
/** The recipe stages' sections: stage 1 (pretrain.*) and stage 2 (offline.*), DESIGN.md §12. */
export type StageSection = 'pretrain' | 'offline';
/** UI grouping: top-level keys are the `run` group. */
export type ConfigGroup = 'run' | ConfigSection;
