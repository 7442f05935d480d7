/**
 * Config from parsed JSON (config.json of a run folder, or a checkpoint's metadata).
 * Missing fields take defaults; unknown keys and bad values are ConfigErrors.
 */
import { ConfigError } from '../errors';
import { defaultConfig, setField } from './access';
import { fieldValueProblem } from './field-values';
import { fieldSpec, isConfigKey } from './fields';
import { unknownKeyError } from './overrides';
import type { ConfigKey, ConfigValue, RunConfig } from './run-config';
import { validateConfig } from './validate';

const SECTIONS = new Set(['policy', 'noise', 'ppo', 'dppo', 'advantages', 'env', 'eval', 'video', 'pretrain', 'offline']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A field that became a choice of auto, true and false (ppo.reward_norm) reads a boolean that an earlier
 * run folder or checkpoint stored as its 'true' or 'false'.
 */
function legacyValue(key: ConfigKey, value: unknown): unknown {
  const spec = fieldSpec(key);
  return typeof value === 'boolean' && spec.kind === 'enum' && (spec.values as readonly string[]).includes(String(value)) ? String(value) : value;
}

/** A validated RunConfig from a nested JSON object; `source` names it in messages. */
export function configFromJson(json: unknown, source = 'config'): RunConfig {
  if (!isPlainObject(json)) throw new ConfigError(source, `${source} must be a JSON object of config fields`);
  let config = defaultConfig();
  const assign = (key: string, stated: unknown) => {
    if (!isConfigKey(key)) throw unknownKeyError(key);
    const value = legacyValue(key, stated);
    const problem = fieldValueProblem(key, value);
    if (problem !== null) throw new ConfigError(key, `${source}: ${problem}`);
    config = setField(config, key as ConfigKey, value as ConfigValue<ConfigKey>);
  };
  for (const [name, value] of Object.entries(json)) {
    if (SECTIONS.has(name)) {
      if (!isPlainObject(value)) throw new ConfigError(name, `${source}: ${name} must be an object of ${name}.* fields`);
      for (const [leaf, leafValue] of Object.entries(value)) assign(`${name}.${leaf}`, leafValue);
    } else {
      assign(name, value);
    }
  }
  return validateConfig(config);
}
