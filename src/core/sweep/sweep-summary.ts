/**
 * The sweep's result table (DESIGN.md §11): per variant, the final evaluation's success over its
 * finished seeds (every run evaluated on the same fresh seeds), env steps and wall-clock, and the
 * difference of the mean success from the baseline's.
 */
import { spread, type Spread } from '../metrics/spread';

/** What one finished run reports (the sweep writes it as the run folder's result.json). */
export interface SweepRunResult {
  id: string;
  variant: string;
  seed: number;
  successRate: number;
  meanReturn: number;
  envSteps: number;
  wallSeconds: number;
}

export interface VariantSummary {
  variant: string;
  seeds: number[];
  success: Spread;
  envSteps: number;
  wallSeconds: Spread;
  /** Mean success minus the baseline's; null without a finished baseline (or for the baseline itself). */
  vsBaseline: number | null;
}

export interface SweepSummary {
  preset: string;
  task: string;
  /** Evaluation episodes per run and their first reset seed, the same for every run. */
  evalEpisodes: number;
  evalSeed: number;
  finishedRuns: number;
  plannedRuns: number;
  variants: VariantSummary[];
}

/** Summaries in `variantOrder`, for the variants with at least one finished run. */
export function summarizeSweep(
  plan: { preset: string; task: string; variants: readonly string[]; runs: readonly unknown[] },
  results: readonly SweepRunResult[],
  evaluation: { episodes: number; seed: number },
  baselineName = 'baseline',
): SweepSummary {
  const summaries: VariantSummary[] = [];
  for (const variant of plan.variants) {
    const runs = results.filter((result) => result.variant === variant).sort((a, b) => a.seed - b.seed);
    if (runs.length === 0) continue;
    summaries.push({
      variant,
      seeds: runs.map((run) => run.seed),
      success: spread(runs.map((run) => run.successRate)),
      envSteps: Math.round(runs.reduce((sum, run) => sum + run.envSteps, 0) / runs.length),
      wallSeconds: spread(runs.map((run) => run.wallSeconds)),
      vsBaseline: null,
    });
  }
  const baseline = summaries.find((summary) => summary.variant === baselineName);
  if (baseline) for (const summary of summaries) if (summary !== baseline) summary.vsBaseline = summary.success.mean - baseline.success.mean;
  return {
    preset: plan.preset, task: plan.task, evalEpisodes: evaluation.episodes, evalSeed: evaluation.seed,
    finishedRuns: results.length, plannedRuns: plan.runs.length, variants: summaries,
  };
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** summary.md: a heading line and one table row per variant. */
export function formatSweepSummary(summary: SweepSummary): string {
  const lines = [
    `# ${summary.preset} on ${summary.task}`,
    '',
    `${summary.finishedRuns} of ${summary.plannedRuns} runs finished. Final success of the deterministic policy on ${summary.evalEpisodes} episodes from reset seed ${summary.evalSeed}, the same for every run.`,
    '',
    '| variant | seeds | success mean ± std | vs baseline | env steps | wall-clock per run |',
    '|---|---|---|---|---|---|',
  ];
  for (const variant of summary.variants) {
    const difference = variant.vsBaseline === null ? '—' : `${variant.vsBaseline >= 0 ? '+' : '−'}${(Math.abs(variant.vsBaseline) * 100).toFixed(1)} pts`;
    lines.push(`| ${variant.variant} | ${variant.seeds.join(', ')} | ${percent(variant.success.mean)} ± ${percent(variant.success.std)} | ${difference} | ${variant.envSteps.toLocaleString('en-US')} | ${(variant.wallSeconds.mean / 60).toFixed(1)} min |`);
  }
  return `${lines.join('\n')}\n`;
}
