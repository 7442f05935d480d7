/**
 * The one list of metric names (DESIGN.md §9, §10), shared by charts, store, CLI
 * and tests. Object order is the stable column order of metrics.csv.
 */

export type MetricGroup = 'progress' | 'charts' | 'eval' | 'losses' | 'advantages' | 'noise' | 'train' | 'env' | 'perf';

export interface MetricInfo {
  /** One line for chart tooltips. */
  readonly doc: string;
  /** Chart panel the metric is drawn in. */
  readonly group: MetricGroup;
  /** Unit shown on the axis; '' when dimensionless. */
  readonly unit: string;
}

const metric = (group: MetricGroup, doc: string, unit = ''): MetricInfo => ({ doc, group, unit });

export const METRICS = {
  'progress/iteration': metric('progress', 'PPO iteration just finished (1-based).'),
  'progress/env_steps': metric('progress', 'Env steps taken so far in training rollouts.', 'steps'),
  'progress/wall_s': metric('progress', 'Wall-clock time since the run started.', 's'),
  'charts/success_rate': metric('charts', 'Fraction of training episodes finished this iteration that succeeded.'),
  'charts/episode_return': metric('charts', 'Mean undiscounted return of training episodes finished this iteration.'),
  'charts/episode_length': metric('charts', 'Mean length of training episodes finished this iteration.', 'steps'),
  'eval/success_rate': metric('eval', 'Success rate of the deterministic ODE evaluation on fixed seeds.'),
  'eval/episode_return': metric('eval', 'Mean return of the evaluation episodes.'),
  'eval/episode_length': metric('eval', 'Mean length of the evaluation episodes.', 'steps'),
  'losses/policy': metric('losses', 'Clipped PPO actor loss, masked mean over the update.'),
  'losses/value': metric('losses', 'Critic loss (MSE or Huber, optionally clipped).'),
  'losses/entropy': metric('losses', 'Mean Gaussian entropy of the stochastic denoising steps.', 'nats'),
  'losses/approx_kl': metric('losses', 'mean((r − 1) − log r) over the reduced log-prob units.'),
  'losses/clip_fraction': metric('losses', 'Fraction of ratios outside [1 − ε_low, 1 + ε_high].'),
  'losses/ratio_mean': metric('losses', 'Mean importance ratio r = exp(logp − old_logp).'),
  'losses/ratio_max': metric('losses', 'Largest importance ratio in the update.'),
  'losses/explained_variance': metric('losses', '1 − Var(returns − values) / Var(returns).'),
  'losses/grad_norm': metric('losses', 'Actor gradient norm before clipping (the critic\'s during critic warm-up); each is clipped on its own.'),
  'losses/nonfinite_skips': metric('losses', 'Minibatch updates skipped this iteration for non-finite values.', 'count'),
  'losses/bc': metric('losses', 'BC regularizer: mean squared distance between the ODE actions of the policy and of the frozen starting policy (unscaled by ppo.bc_coef).'),
  'advantages/grpo_kept_fraction': metric('advantages', 'Fraction of GRPO groups that advantages.grpo_filter kept (a success and a failure among their finished episodes).'),
  'losses/weighted_bc': metric('losses', 'Stage-2 advantage-weighted flow-matching loss (1/B)·Σ w·mse, mean over the progress window.'),
  'advantages/weight_mean': metric('advantages', 'Mean stage-2 advantage weight of the samples drawn in the window (1 over the whole dataset).'),
  'advantages/weight_max': metric('advantages', 'Largest stage-2 advantage weight among the samples drawn in the window.'),
  'advantages/weight_clipped': metric('advantages', 'Fraction of the stage-2 samples drawn in the window whose exp(Â/β) was capped at w_max.'),
  'noise/std': metric('noise', 'Mean exploration std used in the rollout.'),
  'noise/level': metric('noise', 'SDE / CPS noise level a in use.'),
  'train/actor_lr': metric('train', 'Actor learning rate in use.'),
  'train/rollbacks': metric('train', 'Rollbacks to the last saved checkpoint after non-finite updates so far (on_nonfinite=rollback); absent before the first.'),
  'train/critic_lr': metric('train', 'Critic learning rate in use.'),
  'train/early_stop_epoch': metric('train', 'Epoch at which target_kl stopped the update (epochs run when it did not).', 'epochs'),
  'env/clipped_actions': metric('env', 'Fraction of action elements clipped to [-1, 1].'),
  'env/instability_resets': metric('env', 'Envs reset this iteration because the physics became unstable.', 'count'),
  'perf/env_steps_per_s': metric('perf', 'Env steps per second in the rollout phase.', 'steps/s'),
  'perf/rollout_s': metric('perf', 'Wall-clock time of the rollout phase.', 's'),
  'perf/update_s': metric('perf', 'Wall-clock time of the PPO update phase.', 's'),
  'perf/env_s': metric('perf', 'Rollout time spent stepping env chunks.', 's'),
  'perf/policy_s': metric('perf', 'Rollout time spent sampling denoising chains (policy inference).', 's'),
  'perf/value_s': metric('perf', 'Rollout time spent on value bootstraps (truncations and the last observation).', 's'),
  'perf/forward_s': metric('perf', 'Update time in the forward pass (log-prob recompute, values, losses).', 's'),
  'perf/backward_s': metric('perf', 'Update time in the backward pass.', 's'),
  'perf/optimizer_s': metric('perf', 'Update time in gradient clipping and Adam.', 's'),
  'perf/data_s': metric('perf', 'Update time moving minibatches in and losses out.', 's'),
} as const satisfies Record<string, MetricInfo>;

/** A metric name, e.g. 'losses/approx_kl'. */
export type MetricKey = keyof typeof METRICS;

/** Every metric name in stable column order. */
export const METRIC_KEYS: readonly MetricKey[] = Object.keys(METRICS) as MetricKey[];

/** The metrics of one iteration; absent keys were not measured. */
export type MetricRecord = Partial<Record<MetricKey, number>>;

export const METRIC_GROUPS: readonly MetricGroup[] = ['progress', 'charts', 'eval', 'losses', 'advantages', 'noise', 'train', 'env', 'perf'];

const KEY_SET: ReadonlySet<string> = new Set(METRIC_KEYS);

/** True when `key` is a MetricKey. */
export function isMetricKey(key: string): key is MetricKey {
  return KEY_SET.has(key);
}

/** The metric names of one chart group, in column order. */
export function metricsInGroup(group: MetricGroup): MetricKey[] {
  return METRIC_KEYS.filter((key) => METRICS[key].group === group);
}
