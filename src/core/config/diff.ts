/** Field-by-field config comparison, for the run-compare view (DESIGN.md §1 journey 6). */
import { getField } from './access';
import { formatFieldValue } from './field-values';
import { CONFIG_KEYS } from './fields';
import type { ConfigKey, ConfigValue, RunConfig } from './run-config';

export interface ConfigChange {
  readonly key: ConfigKey;
  readonly from: ConfigValue<ConfigKey>;
  readonly to: ConfigValue<ConfigKey>;
}

/** True when two field values are equal (lists compare element-wise). */
export function fieldValuesEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => item === b[index]);
  return a === b;
}

/** The fields that differ from `a` to `b`, in table order. */
export function diffConfig(a: RunConfig, b: RunConfig): ConfigChange[] {
  const changes: ConfigChange[] = [];
  for (const key of CONFIG_KEYS) {
    const from = getField(a, key);
    const to = getField(b, key);
    if (!fieldValuesEqual(from, to)) changes.push({ key, from, to });
  }
  return changes;
}

/** One row of a config-diff table: a key and its value in each run, formatted as overrides write it. */
export interface ConfigDiffRow {
  readonly key: ConfigKey;
  readonly values: string[];
}

/** The keys on which any of `configs` differs from the others, in table order (none for fewer than two). */
export function diffConfigs(configs: readonly RunConfig[]): ConfigDiffRow[] {
  if (configs.length < 2) return [];
  const rows: ConfigDiffRow[] = [];
  for (const key of CONFIG_KEYS) {
    const values = configs.map((config) => getField(config, key));
    if (values.every((value) => fieldValuesEqual(value, values[0]))) continue;
    rows.push({ key, values: values.map(formatFieldValue) });
  }
  return rows;
}
