/**
 * Text ↔ value for one config field, and the per-field type and bounds check.
 * Messages name the key and the allowed values (DESIGN.md §9, §10).
 */
import { ConfigError } from '../errors';
import { setField } from './access';
import { gotText, readDecimal, type DecimalRead } from './decimal-text';
import { describeAllowed, fieldSpec, isConfigKey, PLAIN_NAME, PLAIN_NAME_LIST, tableRange, type FieldSpec } from './fields';
import { inNumericRange } from './numeric-range';
import type { ConfigKey, ConfigValue, RunConfig } from './run-config';

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** Decimal text, with `_` allowed between digits (1_000_000). */
function parseNumber(text: string): DecimalRead {
  return readDecimal(text.trim().replace(/_/g, ''));
}

/** True when `value` has the field's type and is within its table bounds. */
function fieldValueValid(spec: FieldSpec, value: unknown): boolean {
  switch (spec.kind) {
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'name':
      return typeof value === 'string' && (spec.list ? PLAIN_NAME_LIST : PLAIN_NAME).test(value);
    case 'int':
    case 'number':
      return typeof value === 'number' && inNumericRange(tableRange(spec), value);
    case 'int-list': {
      const range = tableRange(spec);
      return Array.isArray(value) && value.length >= spec.minLength && value.length <= spec.maxLength
        && value.every((item) => typeof item === 'number' && inNumericRange(range, item));
    }
  }
}

/** Null when `value` has the field's type and is within bounds, else the problem in one sentence (built only then). */
export function fieldValueProblem(key: ConfigKey, value: unknown): string | null {
  const spec = fieldSpec(key);
  if (fieldValueValid(spec, value)) return null;
  const shown = Array.isArray(value) ? `[${value.join(', ')}]` : typeof value === 'string' ? `'${value}'` : String(value);
  return `${key} must be ${describeAllowed(spec)} (got ${shown})`;
}

/** Parses the text of `key=text` into the field's type; throws ConfigError naming the key and allowed values. */
export function parseFieldValue<K extends ConfigKey>(key: K, text: string): ConfigValue<K> {
  const spec = fieldSpec(key);
  let value: unknown;
  /** The number read, or the list item, whose note says why the text was refused. */
  let note: DecimalRead | undefined;
  switch (spec.kind) {
    case 'enum':
      value = text.trim();
      break;
    case 'name':
      // A list is kept without the spaces around its commas.
      value = spec.list ? text.split(',').map((name) => name.trim()).join(',') : text.trim();
      break;
    case 'bool': {
      const lower = text.trim().toLowerCase();
      value = TRUE_WORDS.has(lower) ? true : FALSE_WORDS.has(lower) ? false : text;
      break;
    }
    case 'int':
    case 'number': {
      const read = parseNumber(text);
      value = read.value;
      note = read;
      break;
    }
    case 'int-list': {
      const inner = text.trim().replace(/^\[/, '').replace(/\]$/, '');
      const items = inner.trim() === '' ? [] : inner.split(',').map(parseNumber);
      value = items.map((item) => item.value);
      note = items.find((item) => item.note !== undefined);
      break;
    }
  }
  const problem = fieldValueProblem(key, value);
  if (problem !== null) {
    throw new ConfigError(key, problem.replace(/\(got .*\)$/, gotText(text, note)));
  }
  return value as ConfigValue<K>;
}

/** The text form used in overrides and URL hashes; parseFieldValue(key, formatFieldValue(v)) equals v. */
export function formatFieldValue(value: unknown): string {
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/**
 * `config` with each of `values` set, every value checked by its own field's validator (the rest of
 * the config stands as it is); throws ConfigError naming the first bad key.
 */
export function withCheckedFields(config: RunConfig, values: { readonly [K in ConfigKey]?: ConfigValue<K> }): RunConfig {
  let result = config;
  for (const [key, value] of Object.entries(values) as [ConfigKey, ConfigValue<ConfigKey>][]) {
    if (!isConfigKey(key)) throw new ConfigError(key, `unknown config key '${key}'`);
    const problem = fieldValueProblem(key, value);
    if (problem !== null) throw new ConfigError(key, problem);
    result = setField(result, key, value);
  }
  return result;
}
