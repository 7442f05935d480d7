/**
 * Short command-line keys that name config fields: `npm run pretrain -- steps=500` is
 * `pretrain.steps=500` (README.md and scripts/reproduce-checkpoints.sh use the short keys).
 * A command's aliases are expanded before parsing, and messages about an alias name it as typed.
 */
import { editDistance, type ConfigKey } from '../core/config';
import { ConfigError } from '../core/errors';

/** Short key → the config key it names. */
export type KeyAliases = Readonly<Record<string, ConfigKey>>;

export interface ExpandedArgs {
  argv: string[];
  /** Config key → the short key it was given as. */
  given: Map<string, string>;
}

/** `argv` with each `alias=value` written `configKey=value`; a field given both ways is a ConfigError (exit 2). */
export function expandAliases(argv: readonly string[], aliases: KeyAliases): ExpandedArgs {
  const keyOf = (arg: string) => (arg.startsWith('--') ? arg.slice(2) : arg).split('=', 1)[0];
  const typed = new Set(argv.map(keyOf));
  const given = new Map<string, string>();
  const expanded = argv.map((arg) => {
    const key = keyOf(arg);
    const target = Object.hasOwn(aliases, key) ? aliases[key] : undefined;
    if (target === undefined || !arg.includes('=')) return arg;
    if (typed.has(target)) throw new ConfigError(key, `${key} and ${target} name the same field; give one of them`);
    given.set(target, key);
    return `${target}=${arg.slice(arg.indexOf('=') + 1)}`;
  });
  return { argv: expanded, given };
}

/** Short keys within edit distance 2 of an unknown key, for "did you mean …?". */
export function closeAliases(key: string, aliases: KeyAliases): string[] {
  return Object.keys(aliases).filter((alias) => editDistance(key, alias) <= 2);
}

/** A ConfigError about a field given under its short key, reworded to name the short key. */
export function asTyped(error: unknown, given: ReadonlyMap<string, string>): unknown {
  if (!(error instanceof ConfigError)) return error;
  const alias = given.get(error.field);
  if (alias === undefined || !error.message.startsWith(error.field)) return error;
  return new ConfigError(error.field, `${alias}${error.message.slice(error.field.length)}`);
}

/** Help lines: a heading, then one line per short key with the config key it sets. */
export function aliasHelp(aliases: KeyAliases): string {
  const width = Math.max(...Object.keys(aliases).map((alias) => alias.length));
  return `short keys (each sets the config key after it):\n${Object.entries(aliases).map(([alias, key]) => `  ${alias.padEnd(width)}  ${key}`).join('\n')}`;
}
