/**
 * A run's overrides: a named preset's first, then the caller's own (command line,
 * studio, sweep), whatever order they were typed in. The two lists are kept apart
 * so messages can say where an override came from; `overrides` joins them in the
 * order they apply, so later code (checkpoint checks, config.json) sees everything asked for.
 */
import { ConfigError } from '../errors';
import { defaultConfig, getField, setField } from './access';
import { diffConfig } from './diff';
import { applyOverrides, editDistance, parseOverride } from './overrides';
import { PRESET_NAMES, PRESETS, type PresetName } from './presets';
import type { ConfigKey, RunConfig } from './run-config';
import { validateConfig } from './validate';

export interface RunOverrides {
  /** The preset asked for, if any. */
  readonly preset?: PresetName;
  /** The preset's overrides, in its order (empty without a preset). */
  readonly presetOverrides: readonly string[];
  /** The caller's own 'a.b=c' overrides, in the order given. */
  readonly userOverrides: readonly string[];
  /** presetOverrides then userOverrides: what applies to the defaults, later ones winning. */
  readonly overrides: readonly string[];
}

/** True when `name` is a preset. */
export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name);
}

/** The preset called `name`; throws ConfigError naming it and listing the allowed names. */
export function presetNamed(name: string): PresetName {
  if (isPresetName(name)) return name;
  const close = PRESET_NAMES.filter((candidate) => editDistance(name, candidate) <= 2);
  const hint = close.length > 0 ? `did you mean ${close.join(', ')}? ` : '';
  throw new ConfigError('preset', `unknown preset '${name}'; ${hint}allowed presets: ${PRESET_NAMES.join(', ')}`);
}

/** Joins a preset (by name, checked) and the caller's overrides; the preset's come first. */
export function runOverrides(preset: string | undefined, userOverrides: readonly string[]): RunOverrides {
  const name = preset === undefined ? undefined : presetNamed(preset);
  const presetOverrides = name === undefined ? [] : [...PRESETS[name].overrides];
  return { preset: name, presetOverrides, userOverrides: [...userOverrides], overrides: [...presetOverrides, ...userOverrides] };
}

/** Plain override lists count as the caller's own, with no preset. */
export function asRunOverrides(overrides: readonly string[] | RunOverrides): RunOverrides {
  return isRunOverrides(overrides) ? overrides : runOverrides(undefined, overrides);
}

function isRunOverrides(value: readonly string[] | RunOverrides): value is RunOverrides {
  return !Array.isArray(value);
}

/** `base` (the defaults unless given) with the preset's overrides, then the caller's, validated. */
export function configFromRunOverrides(run: RunOverrides, base: RunConfig = defaultConfig()): RunConfig {
  return validateConfig(applyOverrides(base, run.overrides));
}

/**
 * The studio's preset choice: the defaults plus the preset, keeping `current`'s task and the
 * fields in `kept` (those a loaded checkpoint fixes) unless the preset sets them itself.
 */
export function presetConfigOver(name: PresetName, current: RunConfig, kept: readonly ConfigKey[] = []): RunConfig {
  let base = setField(defaultConfig(), 'task', current.task);
  for (const key of kept) base = setField(base, key, getField(current, key));
  return configFromRunOverrides(runOverrides(name, []), base);
}

/** The first preset whose config over `config` equals `config`, or undefined for a hand-made config. */
export function matchingPreset(config: RunConfig, kept: readonly ConfigKey[] = []): PresetName | undefined {
  return PRESET_NAMES.find((name) => {
    // A preset that cannot apply over the kept fields (another policy family's) is not the one in force.
    try {
      return diffConfig(presetConfigOver(name, config, kept), config).length === 0;
    } catch {
      return false;
    }
  });
}

/** The keys the overrides set, first mention first. */
export function overrideKeys(overrides: readonly string[]): ConfigKey[] {
  return [...new Set(overrides.map((override) => parseOverride(override).key))];
}
