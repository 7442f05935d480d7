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
