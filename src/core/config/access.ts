/**
 * Reading and writing config fields by dotted key. Writes return a new config;
 * the input is never mutated, so UI state and run snapshots stay stable.
 */
import { CONFIG_FIELDS, CONFIG_KEYS } from './fields';
import type { ConfigKey, ConfigValue, RunConfig } from './run-config';

type Section = Record<string, unknown>;

function splitKey(key: string): [string | undefined, string] {
  const dot = key.indexOf('.');
  return dot < 0 ? [undefined, key] : [key.slice(0, dot), key.slice(dot + 1)];
}

/** The value at a dotted key. */
export function getField<K extends ConfigKey>(config: RunConfig, key: K): ConfigValue<K> {
  const [section, leaf] = splitKey(key);
  const holder = (section === undefined ? config : (config as unknown as Record<string, Section>)[section]) as Section;
  return holder[leaf] as ConfigValue<K>;
}

/** A copy of the config with one field replaced (lists are copied too). */
export function setField<K extends ConfigKey>(config: RunConfig, key: K, value: ConfigValue<K>): RunConfig {
  const [section, leaf] = splitKey(key);
  const stored = Array.isArray(value) ? [...value] : value;
  if (section === undefined) return { ...config, [leaf]: stored };
  const record = config as unknown as Record<string, Section>;
  return { ...config, [section]: { ...record[section], [leaf]: stored } } as RunConfig;
}

/** A deep copy (every list is fresh). */
export function cloneConfig(config: RunConfig): RunConfig {
  return structuredClone(config);
}

/** The defaults from the field table, as a fresh nested object. */
export function defaultConfig(): RunConfig {
  const root: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const [section, leaf] = splitKey(key);
    const spec = CONFIG_FIELDS[key];
    const value = Array.isArray(spec.default) ? [...spec.default] : spec.default;
    if (section === undefined) root[leaf] = value;
    else ((root[section] ??= {}) as Section)[leaf] = value;
  }
  return root as unknown as RunConfig;
}

/** Every field as [key, value] pairs, in table order. */
export function flattenConfig(config: RunConfig): Array<[ConfigKey, ConfigValue<ConfigKey>]> {
  return CONFIG_KEYS.map((key) => [key, getField(config, key)]);
}
