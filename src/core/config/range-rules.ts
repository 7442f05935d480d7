/**
 * Bounds on numeric fields that depend on other fields. Each rule is written once and
 * serves both validation (validate.ts reports a value outside it) and a field's allowed
 * range (field-range.ts, which the studio's sliders and Config tab read), so what the
 * UI offers and what validation accepts cannot drift apart.
 */
import { getField } from './access';
import { CONFIG_FIELDS, tableRange } from './fields';
import { methodLevelBound, methodLevelReason, methodMinDenoiseSteps } from './method-bounds';
import { describeRange, inNumericRange, narrowRange, type Bound, type NumericRange } from './numeric-range';
import type { ConfigKey, ConfigValue, RunConfig } from './run-config';
import type { ConfigProblem } from './validate';

/** Keys of the int and number fields. */
export type NumericKey = { [K in ConfigKey]: ConfigValue<K> extends number ? K : never }[ConfigKey];

type BoundAt = (config: RunConfig) => Bound | undefined;

export interface RangeRule {
  /** The field the rule bounds, and names when its value is outside. */
  readonly key: NumericKey;
  /** The bound on `key` when the rule applies to this config. */
  readonly bound: BoundAt;
  /** One sentence for a value outside the bound; `allowed` words the table's range narrowed by it, e.g. 'a number in (0, 5]'. */
  readonly message: (config: RunConfig, allowed: string) => string;
  /** The same rule seen from the other field it relates (the upper end of an order): it narrows that field's range and reports nothing. */
  readonly mirror?: { readonly key: NumericKey; readonly bound: BoundAt };
}

const numberAt = (config: RunConfig, key: NumericKey): number => getField(config, key) as number;

/** The table's range of a numeric field. */
export function numericTableRange(key: NumericKey): NumericRange {
  return tableRange(CONFIG_FIELDS[key]);
}

/** low ≤ high where `applies`: a maximum on `low` (reported there) and the mirrored minimum on `high`. */
function ordered(low: NumericKey, high: NumericKey, message: RangeRule['message'], applies: (config: RunConfig) => boolean = () => true): RangeRule {
  return {
    key: low,
    bound: (config) => (applies(config) ? { max: numberAt(config, high) } : undefined),
    message,
    mirror: { key: high, bound: (config) => (applies(config) ? { min: numberAt(config, low) } : undefined) },
  };
}

const decays = (config: RunConfig) => config.noise.decay !== 'constant';
const usesLevel = (config: RunConfig) => methodLevelBound(config.noise.method) !== undefined;

/** Every rule, in the order their problems are listed for one key. */
export const RANGE_RULES: readonly RangeRule[] = [
  {
    key: 'iterations',
    bound: (config) => (config.total_env_steps === 0 ? { min: 1 } : undefined),
    message: () => 'iterations and total_env_steps are both 0; set at least one of them',
    mirror: { key: 'total_env_steps', bound: (config) => (config.iterations === 0 ? { min: 1 } : undefined) },
  },
  {
    key: 'eval_episodes',
    bound: (config) => (config.eval.every > 0 ? { min: 1 } : undefined),
    message: (config) => `eval_episodes is 0 but eval.every is ${config.eval.every}; set eval_episodes ≥ 1 or eval.every=0`,
    mirror: { key: 'eval.every', bound: (config) => (config.eval_episodes === 0 ? { max: 0 } : undefined) },
  },
  {
    key: 'policy.denoise_steps',
    bound: (config) => ({ min: methodMinDenoiseSteps(config.noise.method) }),
    message: (config, allowed) => `policy.denoise_steps (${config.policy.denoise_steps}) must be ${allowed} with noise.method=cps, `
      + 'whose last step has no noise, so one step leaves no stochastic step; raise policy.denoise_steps or use another noise.method',
  },
  ordered('policy.n_action_steps', 'policy.horizon',
    (config) => `policy.n_action_steps (${config.policy.n_action_steps}) must be ≤ policy.horizon (${config.policy.horizon}); lower n_action_steps or raise horizon`),
  {
    key: 'noise.level',
    bound: (config) => methodLevelBound(config.noise.method),
    message: (config, allowed) => `noise.level (${config.noise.level}) must be ${allowed} with noise.method=${config.noise.method}, where ${methodLevelReason(config.noise.method)}`,
  },
  ordered('noise.std_min', 'noise.std_max',
    (config) => `noise.std_min (${config.noise.std_min}) must be ≤ noise.std_max (${config.noise.std_max})`),
  {
    key: 'noise.decay_steps',
    bound: (config) => (decays(config) ? { min: 1 } : undefined),
    message: (config) => `noise.decay_steps must be ≥ 1 with noise.decay=${config.noise.decay}; set it or use noise.decay=constant`,
  },
  {
    // The decayed level is a noise level too: it reaches level_min (or comes within 5% of it), so it must be one the method takes.
    key: 'noise.level_min',
    bound: (config) => (decays(config) ? methodLevelBound(config.noise.method) : undefined),
    message: (config, allowed) => `noise.level_min (${config.noise.level_min}) must be ${allowed} with noise.method=${config.noise.method} `
      + `and noise.decay=${config.noise.decay}, which takes noise.level toward it, where ${methodLevelReason(config.noise.method)}; `
      + 'raise noise.level_min or use noise.decay=constant',
  },
  ordered('noise.level_min', 'noise.level',
    (config) => `noise.level_min (${config.noise.level_min}) must be ≤ noise.level (${config.noise.level}) with noise.decay=${config.noise.decay}`,
    (config) => decays(config) && usesLevel(config)),
  {
    key: 'ppo.logprob_min',
    bound: (config) => (config.ppo.logprob_clamp ? { max: config.ppo.logprob_max, maxExclusive: true } : undefined),
    message: (config) => `ppo.logprob_min (${config.ppo.logprob_min}) must be below ppo.logprob_max (${config.ppo.logprob_max}) with ppo.logprob_clamp=true, `
      + 'or every ratio would be 1 and the actor would get no gradient',
    mirror: { key: 'ppo.logprob_max', bound: (config) => (config.ppo.logprob_clamp ? { min: config.ppo.logprob_min, minExclusive: true } : undefined) },
  },
  {
    key: 'ppo.weight_decay',
    bound: (config) => (config.ppo.optimizer === 'adamw' ? undefined : { max: 0 }),
    message: (config) => `ppo.weight_decay (${config.ppo.weight_decay}) applies only with ppo.optimizer=adamw; set ppo.optimizer=adamw or ppo.weight_decay=0`,
  },
  ordered('advantages.n_steps', 'env.steps_per_iteration',
    (config) => `advantages.n_steps (${config.advantages.n_steps}) must be ≤ env.steps_per_iteration (${config.env.steps_per_iteration})`,
    (config) => config.advantages.type === 'nstep'),
  ordered('eval.record_episodes', 'eval_episodes',
    (config) => `eval.record_episodes (${config.eval.record_episodes}) must be ≤ eval_episodes (${config.eval_episodes})`),
];

/** A problem for each rule whose bound the config's value lies outside, in rule order. Assumes every field is within its table bounds. */
export function rangeRuleProblems(config: RunConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const rule of RANGE_RULES) {
    const bound = rule.bound(config);
    if (bound === undefined) continue;
    const range = narrowRange(numericTableRange(rule.key), bound);
    if (!inNumericRange(range, numberAt(config, rule.key))) problems.push({ field: rule.key, message: rule.message(config, describeRange(range)) });
  }
  return problems;
}
