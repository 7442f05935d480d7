/** Field-by-field config comparison, for the run-compare view (DESIGN.md §1 journey 6). */
import { getField } from './access';
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
