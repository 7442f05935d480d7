/** The queue form's pure parts: the seeds field, and what each sweep variant changes. */
import { PRESETS, presetConfig } from '../../core/config';
import { SWEEP_PRESETS, type SweepPresetName } from '../../core/sweep/sweep-presets';
import { familyName, type PolicyKind } from '../policy/flow-only';

export type SeedsParse = { seeds: number[] } | { problem: string };

/** "0, 1,2" → [0, 1, 2]: whole numbers ≥ 0, each once. */
export function parseSeeds(text: string): SeedsParse {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.every((part) => part === '')) return { problem: 'Seeds are empty: give a comma list of whole numbers, like "0, 1, 2".' };
  const seeds: number[] = [];
  for (const part of parts) {
    const seed = /^\d+$/.test(part) ? Number(part) : NaN;
    if (!Number.isSafeInteger(seed)) return { problem: `Seed "${part}" is not a whole number ≥ 0: give a comma list like "0, 1, 2".` };
    if (seeds.includes(seed)) return { problem: `Seed ${seed} is listed twice: each seed runs once per variant.` };
    seeds.push(seed);
  }
  return { seeds };
}

/** The overrides a variant adds to its sweep's baseline (none for the baseline itself). */
export function variantOwnOverrides(presetName: SweepPresetName, variantName: string): string[] {
  const sweep = SWEEP_PRESETS[presetName];
  const variant = sweep.variants.find((entry) => entry.name === variantName);
  if (!variant) return [];
  const baseline = new Set<string>(PRESETS[sweep.baseline].overrides);
  return PRESETS[variant.preset].overrides.filter((override) => !baseline.has(override));
}

/** The variant's tooltip: its preset's one line and the keys it sets. */
export function variantTooltip(presetName: SweepPresetName, variantName: string): string {
  const variant = SWEEP_PRESETS[presetName].variants.find((entry) => entry.name === variantName);
  if (!variant) return variantName;
  const own = variantOwnOverrides(presetName, variantName);
  return `${PRESETS[variant.preset].doc}\n${own.length > 0 ? own.join('  ') : "the sweep's baseline, unchanged"}`;
}

/**
 * Each queued run starts from the selected model when it holds the family the sweep trains; a
 * checkpoint of the other family is not its start, and the runs begin from a fresh policy, as the
 * CLI's sweeps do. This says so before the queue runs; undefined when the selected model is the start.
 */
export function queueFamilyNote(presetName: SweepPresetName, checkpointKind: PolicyKind | undefined): string | undefined {
  const kind = presetConfig(SWEEP_PRESETS[presetName].baseline).policy.kind;
  if (checkpointKind === undefined || checkpointKind === kind) return undefined;
  return `${presetName} trains a ${familyName(kind)} policy: its runs start from a fresh one, not from the selected ${familyName(checkpointKind)} checkpoint.`;
}
