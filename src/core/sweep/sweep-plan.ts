/**
 * A sweep is variants × seeds × a base config (DESIGN.md §11). The plan lists every run with the
 * overrides that make it: the preset's baseline, the task and seed, the base overrides the user
 * gave (so `iterations=2` shrinks every run), then the keys the variant varies, which always win:
 * a base value for a key a variant varies would erase the ablation, so it is reported instead.
 */
import { PRESETS } from '../config/presets';
import { ConfigError } from '../errors';
import { SWEEP_PRESETS, type SweepPresetName } from './sweep-presets';

export interface SweepRun {
  /** Folder name under the sweep's runs/: the variant with ':' as '-', then the seed. */
  id: string;
  variant: string;
  seed: number;
  /** 'a.b=c' overrides for `npm run train`, in order. */
  overrides: string[];
}

export interface SweepPlan {
  preset: SweepPresetName;
  task: string;
  seeds: number[];
  variants: string[];
  /** The base overrides every run shares. */
  base: string[];
  runs: SweepRun[];
  /** One sentence per base override that a variant's own value replaces. */
  notes: string[];
}

export interface SweepRequest {
  preset: SweepPresetName;
  task: string;
  seeds: readonly number[];
  /** Variant names to keep (all when empty). */
  configs?: readonly string[];
  base?: readonly string[];
}

/** The run folder name for a variant and seed. */
export function sweepRunId(variant: string, seed: number): string {
  return `${variant.replace(/:/g, '-')}-s${seed}`;
}

/** Expands a request into its runs; throws ConfigError naming an unknown variant or a bad seed list. */
export function planSweep(request: SweepRequest): SweepPlan {
  const preset = SWEEP_PRESETS[request.preset];
  const known = preset.variants.map((variant) => variant.name);
  const wanted = request.configs && request.configs.length > 0 ? request.configs : known;
  for (const name of wanted) {
    if (!known.includes(name)) throw new ConfigError('configs', `'${name}' is not a variant of ${request.preset}; its variants: ${known.join(', ')}`);
  }
  if (request.seeds.length === 0 || request.seeds.some((seed) => !Number.isInteger(seed) || seed < 0)) {
    throw new ConfigError('seeds', `seeds must be a comma-separated list of non-negative integers, got ${request.seeds.join(',') || 'nothing'}`);
  }
  if (new Set(request.seeds).size !== request.seeds.length) throw new ConfigError('seeds', `seeds repeat: ${request.seeds.join(',')}`);
  const base = [...(request.base ?? [])];
  const baseline: readonly string[] = PRESETS[preset.baseline].overrides;
  const keyOf = (override: string) => override.slice(0, override.indexOf('='));
  const runs: SweepRun[] = [];
  const notes: string[] = [];
  for (const variant of preset.variants.filter((entry) => wanted.includes(entry.name))) {
    const own = PRESETS[variant.preset].overrides.filter((override) => !baseline.includes(override));
    const ownKeys = new Set(own.map(keyOf));
    for (const override of base) {
      if (ownKeys.has(keyOf(override))) notes.push(`${variant.name} varies ${keyOf(override)}, so ${override} does not apply to its runs`);
    }
    for (const seed of request.seeds) {
      runs.push({ id: sweepRunId(variant.name, seed), variant: variant.name, seed, overrides: [...baseline, `task=${request.task}`, `seed=${seed}`, ...base, ...own] });
    }
  }
  return { preset: request.preset, task: request.task, seeds: [...request.seeds], variants: [...new Set(runs.map((run) => run.variant))], base, runs, notes };
}

/** One line per run for `dry_run=true`: variant, seed and its overrides. */
export function dryRunLines(plan: SweepPlan): string[] {
  return plan.runs.map((run) => `${run.variant}\tseed ${run.seed}\t${run.overrides.join(' ')}`);
}
