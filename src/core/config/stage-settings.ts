/**
 * A recipe stage's settings from the studio's demos tab (DESIGN.md §12): config fields of the
 * stage's section (pretrain.* or offline.*) and eval_episodes, set over the studio's config for
 * that stage only, each checked by its own field's validator.
 */
import { ConfigError } from '../errors';
import { withCheckedFields } from './field-values';
import type { ConfigKey, ConfigValue, RunConfig, StageSection } from './run-config';

/** `config` with the stage's `settings` set; a key outside the stage's fields, or a bad value, is a ConfigError naming it. */
export function withStageSettings(config: RunConfig, stage: StageSection, settings: { readonly [K in ConfigKey]?: ConfigValue<K> }): RunConfig {
  for (const key of Object.keys(settings)) {
    if (!key.startsWith(`${stage}.`) && key !== 'eval_episodes') {
      throw new ConfigError(key, `${key} is not a setting of ${stage === 'pretrain' ? 'stage 1' : 'stage 2'}; it takes ${stage}.* fields and eval_episodes`);
    }
  }
  return withCheckedFields(config, settings);
}

/** The PPO loop's evaluation keys: the recipe stages evaluate at their own steps (pretrain.eval_every, offline.eval_every) and never read these. */
const PPO_EVAL_KEYS = ['eval.every', 'eval.record_episodes'] as const;

/**
 * A command-line stage given eval_episodes=0 evaluates nothing, so the PPO loop's eval.every and
 * eval.record_episodes, which it never reads, go to 0 as well unless they were given: otherwise the
 * rules that tie them to eval_episodes would refuse the command over keys the stage ignores.
 */
export function stageEvalOff(config: RunConfig, givenKeys: readonly string[]): RunConfig {
  if (config.eval_episodes !== 0 || !givenKeys.includes('eval_episodes')) return config;
  let off = config;
  for (const key of PPO_EVAL_KEYS) if (!givenKeys.includes(key)) off = withCheckedFields(off, { [key]: 0 });
  return off;
}
