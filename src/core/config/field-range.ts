/**
 * The values a field may take given the rest of the config: its table bounds narrowed by
 * every range rule on it. validateConfig accepts a numeric value exactly when it lies in
 * this range and the other cross-field rules (divisibility, modes) hold, so a slider
 * built from it offers only values the run can use.
 */
import { describeAllowed, fieldSpec } from './fields';
import { describeRange, narrowRange, type NumericRange } from './numeric-range';
import { numericTableRange, RANGE_RULES, type NumericKey } from './range-rules';
import type { ConfigKey, RunConfig } from './run-config';

export type { NumericKey };

/** True when `key` names an int or number field. */
export function isNumericKey(key: ConfigKey): key is NumericKey {
  const kind = fieldSpec(key).kind;
  return kind === 'int' || kind === 'number';
}

/** The allowed range of `key` with every other field as in `config` (DESIGN.md §9). */
export function fieldRange(key: NumericKey, config: RunConfig): NumericRange {
  let range = numericTableRange(key);
  for (const rule of RANGE_RULES) {
    const bound = rule.key === key ? rule.bound(config) : rule.mirror?.key === key ? rule.mirror.bound(config) : undefined;
    if (bound !== undefined) range = narrowRange(range, bound);
  }
  return range;
}

/** The allowed values of any field in words, given the rest of the config (e.g. 'a number in (0, 5]'). */
export function describeFieldAllowed(key: ConfigKey, config: RunConfig): string {
  return isNumericKey(key) ? describeRange(fieldRange(key, config)) : describeAllowed(fieldSpec(key));
}
