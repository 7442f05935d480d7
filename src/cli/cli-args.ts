/**
 * `key=value` argument parsing and exit handling shared by every CLI (DESIGN.md §10).
 * A usage error or a ConfigError exits 2; any other error exits 1; both print one
 * line `error: <message>` on stderr, with a stack trace only when FLOWTUNE_DEBUG=1.
 */
import {
  PRESET_NAMES, PRESETS, applyOverrides, configFromRunOverrides, defaultConfig, configWarnings, editDistance, formatConfigHelp, isConfigKey, overrideKeys,
  gotText, readDecimal, runOverrides, suggestKeys, type PresetName, type RunConfig, type WarningHost,
} from '../core/config';
import { aliasHelp, asTyped, closeAliases, expandAliases, type KeyAliases } from './key-aliases';

export type CliArgKind = 'int' | 'number' | 'string' | 'enum' | 'bool';

/** One accepted argument. `values` is required for `enum`; `min`/`max` bound `int` and `number`. */
export interface CliArgSpec {
  readonly kind: CliArgKind;
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly default?: number | string | boolean;
  readonly required?: boolean;
  /** One line, shown by `help`. */
  readonly doc: string;
}

export type CliSpec = Readonly<Record<string, CliArgSpec>>;

type ValueOf<E extends CliArgSpec> =
  E['kind'] extends 'int' | 'number' ? number
    : E['kind'] extends 'bool' ? boolean
      : E['kind'] extends 'enum' ? (E['values'] extends readonly (infer V)[] ? V : string)
        : string;

type IsPresent<E extends CliArgSpec> =
  E extends { required: true } ? true : E extends { default: number | string | boolean } ? true : false;

/** Parsed values: a key is optional unless it is required or has a default. */
export type CliArgs<S extends CliSpec> = {
  -readonly [K in keyof S]: IsPresent<S[K]> extends true ? ValueOf<S[K]> : ValueOf<S[K]> | undefined;
};

/** A bad command line; the message is one line naming the key and what is allowed. */
export class UsageError extends Error {
  override readonly name = 'UsageError' as const;
  constructor(readonly key: string | undefined, message: string) {
    super(message);
  }
}

/** Thrown for `help` / `--help` / `-h`; runCli prints the usage text and exits 0. */
export class HelpRequest extends Error {
  override readonly name = 'HelpRequest' as const;
}

const HELP_WORDS = new Set(['help', '--help', '-h']);
const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

export interface ParseOptions {
  /**
   * Keys for which this returns true are collected verbatim as config overrides (`a.b=c`).
   * A spec key that is also a config key (e.g. `task`) is parsed and, when given, also passed on.
   */
  readonly isConfigKey?: (key: string) => boolean;
  /** Close matches for an unknown key, added to its message as "did you mean …?". */
  readonly suggest?: (key: string) => readonly string[];
  /** Program name for the help text. */
  readonly program?: string;
}

/** Parses `key=value` arguments against the spec; throws UsageError on any problem. */
export function parseCliArgs<const S extends CliSpec>(argv: readonly string[], spec: S, options: ParseOptions = {}): CliArgs<S> {
  return parseCliArgsWithOverrides(argv, spec, options).args;
}

/** Like parseCliArgs, and also returns the config overrides (`a.b=c`) in command-line order. */
export function parseCliArgsWithOverrides<const S extends CliSpec>(
  argv: readonly string[],
  spec: S,
  options: ParseOptions = {},
): { args: CliArgs<S>; overrides: string[] } {
  const keys = Object.keys(spec);
  const allowedKeys = () => keys.join(', ') + (options.isConfigKey ? ', or any config key (e.g. ppo.clip_low)' : '');
  const raw = new Map<string, string>();
  const overrides: string[] = [];
  for (const arg of argv) {
    if (arg === '--') continue;
    if (HELP_WORDS.has(arg)) throw new HelpRequest(formatUsage(spec, options.program));
    const text = arg.startsWith('--') ? arg.slice(2) : arg;
    const eq = text.indexOf('=');
    if (eq <= 0) {
      throw new UsageError(undefined, `malformed argument '${arg}'; expected key=value with key one of: ${allowedKeys()}`);
    }
    const key = text.slice(0, eq);
    const value = text.slice(eq + 1);
    if (Object.hasOwn(spec, key)) {
      if (raw.has(key)) throw new UsageError(key, `${key} is given more than once; give it once`);
      raw.set(key, value);
      if (options.isConfigKey?.(key)) overrides.push(`${key}=${value}`);
    } else if (options.isConfigKey?.(key)) {
      overrides.push(`${key}=${value}`);
    } else {
      const close = [...keys.filter((candidate) => editDistance(key, candidate) <= 2), ...(options.suggest?.(key) ?? [])];
      const hint = close.length > 0 ? `did you mean ${[...new Set(close)].slice(0, 3).join(', ')}? ` : '';
      throw new UsageError(key, `unknown key '${key}'; ${hint}allowed keys: ${allowedKeys()}`);
    }
  }
  const args: Record<string, unknown> = {};
  for (const key of keys) {
    const entry = spec[key];
    const text = raw.get(key);
    if (text === undefined) {
      if (entry.required) {
        throw new UsageError(key, `missing required key '${key}' (${entry.doc}); allowed keys: ${keys.join(', ')}`);
      }
      args[key] = entry.default;
    } else {
      args[key] = parseValue(key, entry, text);
    }
  }
  return { args: args as CliArgs<S>, overrides };
}

/**
 * The `preset=NAME` argument: a command whose spec has it under the key `preset` gets the
 * preset's overrides applied before its own. An unknown name is a ConfigError (exit 2) that lists the names.
 */
export const PRESET_ARG = {
  kind: 'string',
  doc: `named overrides applied to the defaults before the command line's key=value ones (${PRESET_NAMES.length} presets, listed below)`,
} as const satisfies CliArgSpec;

/** What parseRunArgs returns besides the parsed spec keys. */
export interface ParsedRun<A> {
  args: A;
  /** Defaults (or `base`), then the preset's overrides, then the command line's; validated unless `validate: false`. */
  config: RunConfig;
  /** Everything asked for, in the order it applies: the preset's overrides, then the command line's. */
  overrides: string[];
  /** The preset given as preset=NAME, if any. */
  preset?: PresetName;
  /** The preset's overrides alone (empty without a preset). */
  presetOverrides: string[];
  /** The command line's own config overrides alone, in command-line order. */
  userOverrides: string[];
}

function presetHelp(): string {
  const width = Math.max(...PRESET_NAMES.map((name) => name.length));
  return PRESET_NAMES.map((name) => `  ${name.padEnd(width)}  ${PRESETS[name].doc}`).join('\n');
}

/**
 * For training-style CLIs (`npm run train -- task=lift ckpt=x.flowtune preset=tiny ppo.clip_low=0.1`):
 * parses the spec keys, applies the preset's overrides (when the spec has `preset`) and then every
 * config key (dotted or top-level) on `base` (the defaults unless given), whatever the argument order,
 * validates, and returns the config with the overrides. Bad config values throw ConfigError (exit 2).
 */
export function parseRunArgs<const S extends CliSpec>(
  argv: readonly string[],
  spec: S,
  options: {
    base?: RunConfig;
    program?: string;
    /**
     * false when a checkpoint still decides some fields (horizon, K, …): only each value is checked
     * here, and the caller validates the whole config once the checkpoint's values are in (loadRunCheckpoint does).
     */
    validate?: boolean;
    /** Short keys for config fields (`steps` → `pretrain.steps`), listed by `help`; a message about one names it as typed. */
    aliases?: KeyAliases;
  } = {},
): ParsedRun<CliArgs<S>> {
  let parsed: { args: CliArgs<S>; overrides: string[] };
  const hasPreset = Object.hasOwn(spec, 'preset');
  const aliases = options.aliases ?? {};
  const expanded = expandAliases(argv, aliases);
  const suggest = (key: string) => {
    const close = closeAliases(key, aliases);
    const named = new Set(close.map((alias) => aliases[alias]));
    return [...close, ...suggestKeys(key).filter((configKey) => !named.has(configKey))];
  };
  try {
    parsed = parseCliArgsWithOverrides(expanded.argv, spec, { isConfigKey, suggest, program: options.program });
  } catch (error) {
    if (error instanceof HelpRequest) {
      const presets = hasPreset ? `\npresets (preset=NAME):\n${presetHelp()}` : '';
      const short = Object.keys(aliases).length > 0 ? `\n${aliasHelp(aliases)}` : '';
      throw new HelpRequest(`${error.message}${presets}${short}\nconfig keys (key=value):\n${formatConfigHelp()}`);
    }
    throw error;
  }
  const { args, overrides } = parsed;
  const presetName = hasPreset ? (args as Record<string, unknown>).preset as string | undefined : undefined;
  const run = runOverrides(presetName, overrides);
  let config: RunConfig;
  try {
    config = options.validate === false ? applyOverrides(options.base ?? defaultConfig(), run.overrides) : configFromRunOverrides(run, options.base);
  } catch (error) {
    throw asTyped(error, expanded.given);
  }
  return { args, config, overrides: [...run.overrides], preset: run.preset, presetOverrides: [...run.presetOverrides], userOverrides: [...run.userOverrides] };
}

/** `warning: …` lines for config keys the command line was given that do nothing on `host`. */
export function configWarningLines(config: RunConfig, userOverrides: readonly string[], host: WarningHost): string[] {
  return configWarnings(config, overrideKeys(userOverrides), host).map((sentence) => `warning: ${sentence}`);
}

/** Prints configWarningLines on stderr. */
export function printConfigWarnings(config: RunConfig, userOverrides: readonly string[], host: WarningHost): void {
  for (const line of configWarningLines(config, userOverrides, host)) process.stderr.write(`${line}\n`);
}

function rangeText(entry: CliArgSpec): string {
  const kind = entry.kind === 'int' ? 'an integer' : 'a number';
  if (entry.min !== undefined && entry.max !== undefined) return `${kind} in [${entry.min}, ${entry.max}]`;
  if (entry.min !== undefined) return `${kind} ≥ ${entry.min}`;
  if (entry.max !== undefined) return `${kind} ≤ ${entry.max}`;
  return kind;
}

function parseValue(key: string, entry: CliArgSpec, text: string): number | string | boolean {
  switch (entry.kind) {
    case 'int':
    case 'number': {
      const read = readDecimal(text.trim());
      const value = read.value;
      const ok = Number.isFinite(value) && (entry.kind === 'number' || Number.isInteger(value))
        && (entry.min === undefined || value >= entry.min) && (entry.max === undefined || value <= entry.max);
      if (!ok) throw new UsageError(key, `${key} must be ${rangeText(entry)} ${gotText(text, read)}`);
      return value;
    }
    case 'bool': {
      const lower = text.toLowerCase();
      if (TRUE_WORDS.has(lower)) return true;
      if (FALSE_WORDS.has(lower)) return false;
      throw new UsageError(key, `${key} must be one of true, false (got '${text}')`);
    }
    case 'enum': {
      const values = entry.values ?? [];
      if (!values.includes(text)) throw new UsageError(key, `${key} must be one of ${values.join(', ')} (got '${text}')`);
      return text;
    }
    case 'string':
      if (text === '') throw new UsageError(key, `${key} must not be empty`);
      return text;
  }
}

/** Multi-line help: one line per key with its kind, allowed values or range, default and doc. */
export function formatUsage(spec: CliSpec, program = 'flowtune'): string {
  const lines = [`usage: ${program} ${Object.keys(spec).map((key) => (spec[key].required ? `${key}=…` : `[${key}=…]`)).join(' ')}`];
  for (const [key, entry] of Object.entries(spec)) {
    const kind = entry.kind === 'enum' ? (entry.values ?? []).join('|')
      : entry.kind === 'int' || entry.kind === 'number' ? rangeText(entry) : entry.kind;
    const tail = entry.required ? ' (required)' : entry.default !== undefined ? ` (default ${String(entry.default)})` : '';
    lines.push(`  ${key.padEnd(16)} ${kind}${tail}: ${entry.doc}`);
  }
  return lines.join('\n');
}

/** The outcome runCli gives an error: exit status and the text for stderr. */
export interface CliFailure {
  readonly exitCode: 0 | 1 | 2;
  readonly text: string;
  readonly stream: 'stdout' | 'stderr';
}

const USAGE_ERROR_NAMES = new Set(['UsageError', 'ConfigError']);

/** Maps an error to its exit status and one-line message (plus the stack when `debug`). */
export function describeCliError(error: unknown, debug = false): CliFailure {
  if (error instanceof HelpRequest) return { exitCode: 0, text: error.message, stream: 'stdout' };
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0];
  const exitCode = typeof name === 'string' && USAGE_ERROR_NAMES.has(name) ? 2 : 1;
  const stack = debug && error instanceof Error && error.stack ? `\n${error.stack}` : '';
  return { exitCode, text: `error: ${firstLine}${stack}`, stream: 'stderr' };
}

/** Runs a CLI's main; on failure prints one `error:` line and exits 2 (usage/config) or 1 (anything else). */
export async function runCli(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    const failure = describeCliError(error, process.env.FLOWTUNE_DEBUG === '1');
    if (failure.stream === 'stdout') process.stdout.write(failure.text + '\n');
    else process.stderr.write(failure.text + '\n');
    process.exit(failure.exitCode);
  }
}
