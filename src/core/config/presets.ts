/**
 * Named presets as override lists over the defaults. The ReinFlow presets follow
 * the baseline and the 21 one-category ablations of reference 003; each ablation
 * is the baseline plus the overrides its name says it varies.
 */
import { defaultConfig } from './access';
import { applyOverrides } from './overrides';
import type { RunConfig } from './run-config';
import { validateConfig } from './validate';

export type PresetCategory = 'general' | 'baseline' | 'warmup' | 'noise' | 'ppo' | 'lr' | 'inference_steps' | 'rollout';

export interface Preset {
  /** One line for the preset menu. */
  readonly doc: string;
  readonly category: PresetCategory;
  /** 'a.b=c' overrides applied to the defaults, in order. */
  readonly overrides: readonly string[];
}

/**
 * ReinFlow 003 baseline: learnable noise σ ∈ [0.01, 0.3] decaying linearly over 500k steps, K = 8, 16 envs × 128 decisions.
 * The log-prob is ReinFlow's: a joint chain's over (K + 1)·H·A (`mean`), with ReinFlow's PPO clip for state inputs,
 * ε = 0.01. Seed 003 states ε = 0.2, but on the chain's summed log-prob; on the mean that ε lets the log-ratio move
 * (K + 1)·H·A times as far (160 times on the pick-cube BC), and seed 0 from that BC fell from 59% to 0% success within
 * 18 iterations (approximate KL 0.004–0.014 an iteration on the mean, where ε = 0.01 gives about 2e-4). At ε = 0.01
 * the same seed's rollouts held 52–68% over its first 20 iterations.
 * The clip ablations keep seed 003's ratios to its baseline: half (tight) and 1.5 times (loose).
 */
const REINFLOW_BASELINE: readonly string[] = [
  'noise.method=noise', 'noise.mode=joint', 'noise.logprob_type=mean', 'noise.std_min=0.01', 'noise.std_max=0.3',
  'noise.decay=linear', 'noise.decay_steps=500000', 'ppo.critic_warmup_steps=5000',
  'ppo.clip_low=0.01', 'ppo.clip_high=0.01', 'ppo.entropy_coef=0.01', 'ppo.value_coef=0.5',
  'actor_lr=3e-5', 'critic_lr=1e-4', 'policy.denoise_steps=8', 'num_envs=16',
  'env.steps_per_iteration=128', 'ppo.epochs=4', 'ppo.minibatch_size=64', 'total_env_steps=1000000',
];

/**
 * ReinFlow's Gym locomotion fine-tune (its hopper-v2 ft_ppo_reflow_mlp config) at our rollout size: learnable noise
 * σ ∈ [0.10, 0.24], K = 4, PPO clip 0.01 on the `mean` log-prob, entropy 0.03, critic 6.5e-4, 5 epochs, no critic
 * warm-up, log-prob clamp [−1, 1], running reward scaling (its reward_scale_running; without it the critic spends the
 * first half of a 1M-step budget fitting raw returns of a few hundred, and the policy barely moves until it has). Its
 * σ bound eases by cosine to 0.198 after 35% of training; ours holds at 0.24.
 * The actor step is ours: ReinFlow's actor 4.5e-5 over one whole-rollout batch per epoch is sized for 80k-step
 * iterations and 80M steps. At our 2048-decision iterations and 1M steps it left the approximate KL near 3e-7 and the
 * clip fraction at 0 on hopper; actor 2e-4 over minibatches of 512 (20 steps per iteration) lets the clip bind (about
 * 12-16% of samples, KL about 3e-5) and lifts hopper's return after 1M env steps from 1902 ± 200 to 2533 ± 123
 * (3 seeds from the same BC, 100 fresh episodes; README, Locomotion).
 */
const LOCOMOTION_REINFLOW: readonly string[] = [
  'noise.method=noise', 'noise.mode=joint', 'noise.logprob_type=mean', 'noise.std_min=0.1', 'noise.std_max=0.24',
  'noise.decay=constant', 'ppo.critic_warmup_steps=0', 'ppo.clip_low=0.01', 'ppo.clip_high=0.01', 'ppo.entropy_coef=0.03',
  'ppo.value_coef=0.5', 'ppo.logprob_clamp=true', 'ppo.reward_norm=true', 'actor_lr=2e-4', 'critic_lr=6.5e-4', 'policy.denoise_steps=4',
  'num_envs=16', 'env.steps_per_iteration=128', 'ppo.epochs=5', 'ppo.minibatch_size=512', 'total_env_steps=1000000',
];

/**
 * Flow-SDE (πRL, reference 004: the hybrid chain, one stochastic step per chain) at locomotion-reinflow's rollout
 * size, budget, learning rates, epochs, clip, log-prob unit and clamp, so the two differ in the exploration noise
 * alone (the noise-head bounds stay, unread). Its σ is a fixed schedule, so the entropy bonus is 0 (it has no
 * gradient). The level is 0.8, not πRL's 0.5: on hopper's fresh seeds 3–5 and walker2d's seeds 0–2 every run ended
 * higher at 0.8, and every hopper run at 1.0 ended below its 0.8 run (README, "Fine-tuning methods side by side").
 * On hopper a clip of 0.01 on the mean log-prob of the stochastic step's H·A = 12 elements is 0.12 on their sum, where
 * πRL clips the summed chunk log-prob's ratio at 0.2.
 */
const LOCOMOTION_FLOWSDE: readonly string[] = [
  ...LOCOMOTION_REINFLOW.filter((override) => !['noise.method=', 'noise.mode=', 'ppo.entropy_coef='].some((key) => override.startsWith(key))),
  'noise.method=sde', 'noise.mode=hybrid', 'noise.level=0.8', 'ppo.entropy_coef=0',
];

/**
 * DPPO's fine-tuning of a diffusion policy (DESIGN.md §17), its Gym hopper config (ft_ppo_diffusion_mlp.yaml) at our
 * rollout size: T = 20 with the last 10 steps fine-tuned, γ_denoise 0.99, clip 0.01 from a base of 0.01 at rate 3,
 * std floors 0.1, step noise clipped at 3, 5 epochs of 4 minibatches (its 50000 of 200000 samples), actor 1e-4,
 * critic 1e-3, value coefficient 0.5, running reward scaling (unclipped), log-probs clamped to [−5, 2], target KL 1, no
 * gradient clipping, H = 4 executed in full, the value loss ½(V − R)². DPPO discounts by γ per decision of 4 env
 * steps (0.99 on hopper, 0.999 on robomimic); ours is per env step, so γ^(1/4): 0.9975 and 0.99975.
 */
const DPPO_COMMON: readonly string[] = [
  'policy.kind=diffusion', 'policy.denoise_steps=20', 'policy.ddim_steps=0', 'policy.denoised_clamp=1', 'dppo.ft_denoising_steps=10',
  'dppo.gamma_denoising=0.99', 'dppo.clip_rate=3', 'dppo.min_sampling_std=0.1', 'dppo.min_logprob_std=0.1', 'dppo.randn_clip=3',
  'ppo.clip_low=0.01', 'ppo.clip_high=0.01', 'ppo.value_coef=0.5', 'ppo.value_loss=mse', 'ppo.entropy_coef=0', 'ppo.logprob_clamp=true', 'ppo.logprob_min=-5',
  'ppo.logprob_max=2', 'ppo.target_kl=1', 'ppo.max_grad_norm=0', 'ppo.reward_norm=true', 'ppo.norm_clip=1000000', 'ppo.critic_warmup_steps=0',
  'actor_lr=1e-4', 'critic_lr=1e-3', 'advantages.lambda=0.95', 'advantages.normalize=true', 'num_envs=16', 'env.steps_per_iteration=128',
];
const DPPO_LOCOMOTION: readonly string[] = [
  ...DPPO_COMMON, 'dppo.clip_base=0.01', 'advantages.gamma=0.9975', 'ppo.epochs=5', 'ppo.minibatch_size=5120', 'total_env_steps=1000000',
];
/** DPPO's robomimic state fine-tune (can, lift, square, transport: ft_ppo_diffusion_mlp.yaml): γ 0.999, clip base 0.001, 10 epochs of 20 minibatches. */
const DPPO_MANIPULATION: readonly string[] = [
  ...DPPO_COMMON, 'dppo.clip_base=0.001', 'advantages.gamma=0.99975', 'ppo.epochs=10', 'ppo.minibatch_size=1024', 'total_env_steps=1000000',
];

const ablation = (category: PresetCategory, doc: string, ...overrides: string[]): Preset =>
  ({ doc, category, overrides: [...REINFLOW_BASELINE, ...overrides] });

export const PRESETS = {
  default: { doc: 'Defaults: Flow-SDE hybrid, a = 0.5, K = 4 (reference 004).', category: 'general', overrides: [] },
  tiny: {
    doc: 'Tiny end-to-end run: [32, 32] MLP, 4 envs, K = 4, H = 4, short rollouts, 2 eval episodes.',
    category: 'general',
    overrides: [
      'policy.hidden=32,32', 'policy.encoder_hidden=32', 'policy.value_hidden=32,32', 'policy.noise_head_hidden=16',
      'policy.denoise_steps=4', 'policy.horizon=4', 'policy.n_action_steps=2', 'policy.n_obs_steps=1',
      'num_envs=4', 'env.steps_per_iteration=8', 'env.workers=1', 'env.num_points=64', 'ppo.minibatch_size=16',
      'ppo.epochs=2', 'ppo.critic_warmup_steps=0', 'iterations=3', 'eval_episodes=2', 'eval.every=3',
      'eval.record_episodes=1', 'checkpoint_every=0',
    ],
  },
  'gaussian-ppo': {
    doc: 'Gaussian PPO baseline: CleanRL ppo_continuous_action (tanh MLP 64×64, 1 env × 2048 steps, 10 epochs × 32 minibatches, lr 3e-4 annealed, 1M steps).',
    category: 'general',
    overrides: [
      'policy.kind=gaussian', 'policy.horizon=1', 'policy.n_action_steps=1', 'policy.n_obs_steps=1', 'num_envs=1',
      'env.steps_per_iteration=2048', 'ppo.epochs=10', 'ppo.minibatch_size=64', 'actor_lr=3e-4', 'critic_lr=3e-4',
      'ppo.lr_schedule=linear', 'ppo.clip_low=0.2', 'ppo.clip_high=0.2', 'ppo.value_clip=0.2', 'ppo.value_loss=mse',
      'ppo.value_coef=0.5', 'ppo.entropy_coef=0', 'ppo.max_grad_norm=0.5', 'ppo.adam_eps=1e-5', 'ppo.critic_warmup_steps=0',
      'ppo.target_kl=0', 'advantages.type=gae', 'advantages.gamma=0.99', 'advantages.lambda=0.95', 'advantages.normalize=true',
      'total_env_steps=1000000', 'eval_episodes=10', 'eval.every=50', 'checkpoint_every=50',
    ],
  },
  'locomotion-reinflow': {
    doc: 'ReinFlow\'s Gym locomotion fine-tune (hopper\'s lr; walker2d\'s adds ReinFlow\'s walker2d critic: critic_lr=4e-3 ppo.critic_warmup_steps=40000): σ ∈ [0.10, 0.24], K = 4, clip 0.01, entropy 0.03, running reward scaling; actor 2e-4 over 5 epochs of 4 minibatches of 512.',
    category: 'general',
    overrides: LOCOMOTION_REINFLOW,
  },
  'locomotion-flowsde': {
    doc: 'Flow-SDE (πRL, reference 004: hybrid, at noise level a = 0.8, above πRL\'s 0.5) at locomotion-reinflow\'s rollout size, budget, lr, epochs and clip; only the exploration noise differs (walker2d adds the same critic keys).',
    category: 'general',
    overrides: LOCOMOTION_FLOWSDE,
  },
  'reinflow-baseline': { doc: 'ReinFlow baseline of reference 003.', category: 'baseline', overrides: REINFLOW_BASELINE },
  'reinflow-warmup-0': ablation('warmup', 'Critic warm-up off (0 steps).', 'ppo.critic_warmup_steps=0'),
  'reinflow-warmup-2k': ablation('warmup', 'Shorter critic warm-up (2000 steps).', 'ppo.critic_warmup_steps=2000'),
  'reinflow-warmup-10k': ablation('warmup', 'Longer critic warm-up (10000 steps).', 'ppo.critic_warmup_steps=10000'),
  'reinflow-noise-constant': ablation('noise', 'No noise decay (σ_max stays 0.3).', 'noise.decay=constant'),
  'reinflow-noise-exponential': ablation('noise', 'Exponential noise decay over 500k steps.', 'noise.decay=exponential'),
  'reinflow-noise-fast-decay': ablation('noise', 'Linear decay over 200k steps instead of 500k.', 'noise.decay_steps=200000'),
  'reinflow-noise-low-init': ablation('noise', 'Half the initial noise (σ_max 0.15).', 'noise.std_max=0.15'),
  'reinflow-noise-high-init': ablation('noise', 'More initial noise (σ_max 0.5).', 'noise.std_max=0.5'),
  'reinflow-clip-tight': ablation('ppo', 'Tighter PPO clip (ε 0.005, half the baseline\'s, as seed 003\'s 0.1 is of its 0.2).', 'ppo.clip_low=0.005', 'ppo.clip_high=0.005'),
  'reinflow-clip-loose': ablation('ppo', 'Looser PPO clip (ε 0.015, 1.5 times the baseline\'s, as seed 003\'s 0.3 is of its 0.2).', 'ppo.clip_low=0.015', 'ppo.clip_high=0.015'),
  'reinflow-entropy-0.05': ablation('ppo', 'More entropy bonus (0.05).', 'ppo.entropy_coef=0.05'),
  'reinflow-entropy-0.001': ablation('ppo', 'Less entropy bonus (0.001).', 'ppo.entropy_coef=0.001'),
  'reinflow-value-coef-1': ablation('ppo', 'Heavier critic loss (value_coef 1.0).', 'ppo.value_coef=1'),
  'reinflow-lr-low': ablation('lr', 'Learning rates 3× lower (actor 1e-5, critic 3e-5).', 'actor_lr=1e-5', 'critic_lr=3e-5'),
  'reinflow-lr-high': ablation('lr', 'Learning rates 3× higher (actor 1e-4, critic 3e-4).', 'actor_lr=1e-4', 'critic_lr=3e-4'),
  'reinflow-lr-equal': ablation('lr', 'Equal learning rates (5e-5 for both).', 'actor_lr=5e-5', 'critic_lr=5e-5'),
  'reinflow-steps-4': ablation('inference_steps', 'Fewer denoising steps (K = 4).', 'policy.denoise_steps=4'),
  'reinflow-steps-16': ablation('inference_steps', 'More denoising steps (K = 16).', 'policy.denoise_steps=16'),
  'reinflow-rollout-short': ablation('rollout', 'Shorter rollouts (64 decisions, minibatch 32).', 'env.steps_per_iteration=64', 'ppo.minibatch_size=32'),
  'reinflow-rollout-long': ablation('rollout', 'Longer rollouts (256 decisions, minibatch 128).', 'env.steps_per_iteration=256', 'ppo.minibatch_size=128'),
  'reinflow-epochs-8': ablation('rollout', 'More PPO epochs per rollout (8).', 'ppo.epochs=8'),
  'reinflow-pickcube-rgb': {
    doc: 'Seed 003\'s own run: ReinFlow on pick-cube from the front camera, a ShortCut UNet1D velocity net (H 16, 8 executed, K 8) with learned noise in [0.01, 0.3], as reinflow-baseline.',
    category: 'general',
    overrides: [...REINFLOW_BASELINE, 'env.obs_type=rgb', 'policy.velocity_net=unet1d', 'policy.horizon=16', 'policy.n_action_steps=8', 'policy.n_obs_steps=1'],
  },
  dppo: {
    doc: 'DPPO\'s Gym locomotion fine-tune of a diffusion policy: T = 20, last 10 steps fine-tuned, γ_denoise 0.99, clip 0.01 (base 0.01, rate 3), std floors 0.1, 5 epochs, actor 1e-4, critic 1e-3, running reward scaling.',
    category: 'general',
    overrides: DPPO_LOCOMOTION,
  },
  'dppo-manipulation': {
    doc: 'DPPO\'s robomimic state fine-tune of a diffusion policy: as dppo, with γ 0.999 per decision, clip base 0.001 and 10 epochs of 20 minibatches.',
    category: 'general',
    overrides: DPPO_MANIPULATION,
  },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

/** The validated config of a preset. */
export function presetConfig(name: PresetName): RunConfig {
  return validateConfig(applyOverrides(defaultConfig(), PRESETS[name].overrides));
}
