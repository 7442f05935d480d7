/**
 * `a.b=c` overrides (DESIGN.md §10). Unknown keys suggest the closest allowed
 * keys; bad values name the key and the allowed values or range.
 */
import { ConfigError } from '../errors';
import { setField } from './access';
import { parseFieldValue } from './field-values';
import { CONFIG_KEYS, isConfigKey } from './fields';
import type { ConfigKey, RunConfig } from './run-config';

/** Edit distance between two strings (insert, delete, substitute; each costs 1). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, column) => column);
  for (let row = 1; row <= a.length; row++) {
    const current = [row];
    for (let column = 1; column <= b.length; column++) {
      const substitute = previous[column - 1] + (a[row - 1] === b[column - 1] ? 0 : 1);
      current.push(Math.min(substitute, previous[column] + 1, current[column - 1] + 1));
    }
    previous = current;
  }
  return previous[b.length];
}

const leafOf = (key: string) => key.slice(key.lastIndexOf('.') + 1);

/**
 * Up to `limit` allowed keys closest to `unknown`: a key whose last segment equals
 * the unknown key's last segment ranks first (e.g. 'clip_low' → 'ppo.clip_low'),
 * then keys containing it or one of its words (e.g. 'lr' → 'actor_lr'), then by edit distance.
 */
export function suggestKeys(unknown: string, limit = 3): ConfigKey[] {
  const unknownLeaf = leafOf(unknown);
  const scored = CONFIG_KEYS.map((key) => {
    const leaf = leafOf(key);
    let score = Math.min(editDistance(unknown, key), editDistance(unknownLeaf, leaf) + 1);
    if (leaf === unknownLeaf) score = -2;
    else if (leaf.split('_').includes(unknownLeaf) || (unknownLeaf.length >= 3 && key.includes(unknownLeaf))) score = Math.min(score, -1);
    return { key, score };
  });
  const cutoff = Math.max(2, Math.floor(unknownLeaf.length / 2));
  return scored
    .filter((entry) => entry.score <= cutoff)
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map((entry) => entry.key);
}

/** ConfigError for a key that is not in the table, with suggestions. */
export function unknownKeyError(key: string): ConfigError {
  const suggestions = suggestKeys(key);
  const hint = suggestions.length > 0
    ? `did you mean ${suggestions.join(', ')}?`
    : `allowed keys start with one of: ${[...new Set(CONFIG_KEYS.map((k) => (k.includes('.') ? `${k.split('.')[0]}.` : k)))].join(', ')}`;
  return new ConfigError(key, `unknown config key '${key}'; ${hint}`);
}

/** Splits 'a.b=c' into its key and value text; throws ConfigError when malformed or unknown. */
export function parseOverride(override: string): { key: ConfigKey; text: string } {
  const eq = override.indexOf('=');
  if (eq <= 0) {
    throw new ConfigError(override, `malformed override '${override}'; expected key=value, e.g. ppo.clip_low=0.1`);
  }
  const key = override.slice(0, eq).trim();
  if (!isConfigKey(key)) throw unknownKeyError(key);
  return { key, text: override.slice(eq + 1) };
}

/** A copy of `config` with each 'a.b=c' applied in order (later ones win). Cross-field checks are validateConfig's. */
export function applyOverrides(config: RunConfig, overrides: readonly string[]): RunConfig {
  let result = config;
  for (const override of overrides) {
    const { key, text } = parseOverride(override);
    result = setField(result, key, parseFieldValue(key, text));
  }
  return result;
}
