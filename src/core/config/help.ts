/** Text listing of config fields for `help` output and tooltips. */
import { CONFIG_KEYS, describeAllowed, fieldSpec } from './fields';
import { formatFieldValue } from './field-values';
import type { ConfigKey } from './run-config';

/** "ppo.clip_low: a number in (0, 1), default 0.2. <doc>" */
export function describeConfigField(key: ConfigKey): string {
  const spec = fieldSpec(key);
  return `${key}: ${describeAllowed(spec)}, default ${formatFieldValue(spec.default)}. ${spec.doc}`;
}

/** One line per config field, in table order. */
export function formatConfigHelp(): string {
  return CONFIG_KEYS.map((key) => `  ${describeConfigField(key)}`).join('\n');
}
