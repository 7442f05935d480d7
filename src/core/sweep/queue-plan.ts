/**
 * The studio's queue (DESIGN.md §11 "In the studio"): a sweep preset's variants × seeds run one after
 * another on the studio's config. The studio's config plays the part of the command line's base
 * overrides: every key the user changed from the defaults (including what the selected checkpoint
 * fixes) stays; the preset's baseline fills the keys left at their defaults; the variant's own keys
 * win over both, as in planSweep.
 */
import { defaultConfig } from '../config/access';
import { diffConfig } from '../config/diff';
import { applyOverrides, parseOverride } from '../config/overrides';
import { PRESETS } from '../config/presets';
import type { RunConfig } from '../config/run-config';
import { validateConfig } from '../config/validate';
import { ConfigError } from '../errors';
import { planSweep } from './sweep-plan';
import { SWEEP_PRESET_NAMES, SWEEP_PRESETS, type SweepPresetName } from './sweep-presets';

export interface QueuePlanItem {
  variant: string;
  seed: number;
  config: RunConfig;
}

export function sweepPresetNamed(name: string): SweepPresetName {
  if ((SWEEP_PRESET_NAMES as string[]).includes(name)) return name as SweepPresetName;
  throw new ConfigError('preset', `unknown sweep preset '${name}'; known: ${SWEEP_PRESET_NAMES.join(', ')}`);
}

/** The overrides a variant adds to its preset's baseline. */
export function variantOwnOverrides(preset: SweepPresetName, variant: string): string[] {
  const entry = SWEEP_PRESETS[preset].variants.find((candidate) => candidate.name === variant);
  if (!entry) throw new ConfigError('variants', `'${variant}' is not a variant of ${preset}`);
  const baseline: readonly string[] = PRESETS[SWEEP_PRESETS[preset].baseline].overrides;
  return PRESETS[entry.preset].overrides.filter((override) => !baseline.includes(override));
}

/** The config of one queue run: baseline where `studio` has defaults, then `studio`, then seed and the variant's keys. */
export function queueRunConfig(studio: RunConfig, preset: SweepPresetName, variant: string, seed: number): RunConfig {
  const changed = new Set<string>(diffConfig(defaultConfig(), studio).map((change) => change.key));
  const baseline = PRESETS[SWEEP_PRESETS[preset].baseline].overrides.filter((override) => !changed.has(parseOverride(override).key));
  return validateConfig(applyOverrides(studio, [...baseline, `seed=${seed}`, ...variantOwnOverrides(preset, variant)]));
}

/** Every run of the queue in planSweep's order (variant by variant, seeds inside); ConfigError for an unknown variant or bad seeds. */
export function planQueue(request: { preset: string; variants: readonly string[]; seeds: readonly number[] }, studio: RunConfig): QueuePlanItem[] {
  const preset = sweepPresetNamed(request.preset);
  const plan = planSweep({ preset, task: studio.task, seeds: request.seeds, configs: request.variants });
  return plan.runs.map((run) => ({ variant: run.variant, seed: run.seed, config: queueRunConfig(studio, preset, run.variant, run.seed) }));
}
