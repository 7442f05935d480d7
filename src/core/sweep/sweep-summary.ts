/**
 * The sweep's result table (DESIGN.md §11): per variant, the final evaluation over its finished
 * seeds (every run evaluated on the same fresh seeds), env steps and wall-clock, and the difference
 * of its mean from the baseline's. The measure is success; a task without a success rule (§13)
 * is measured by final mean return instead, and its variants are ranked best first.
 */
import { spread, type Spread } from '../metrics/spread';

/** What one finished run reports (the sweep writes it as the run folder's result.json). */
export interface SweepRunResult {
  id: string;
  variant: string;
  seed: number;
  /** null for a task without a success rule: its meanReturn measures the run. */
  successRate: number | null;
  meanReturn: number;
  envSteps: number;
  wallSeconds: number;
}

/** What a sweep's variants are compared by. */
export type SweepMeasure = 'success' | 'return';

export interface VariantSummary {
  variant: string;
  seeds: number[];
  /** Final success over the seeds; null when the sweep is measured by return. */
  success: Spread | null;
  /** Final mean return over the seeds; present only when the sweep is measured by return. */
  return?: Spread;
  envSteps: number;
  wallSeconds: Spread;
  /** The measure's mean minus the baseline's; null without a finished baseline (or for the baseline itself). */
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
  /** 'return' when the task has no success rule: variants are ranked by final mean return, best first. Absent: measured by success, in plan order. */
  rankedBy?: 'return';
  variants: VariantSummary[];
}

export interface SummarizeOptions {
  baseline?: string;
  /** The task's measure, for a sweep with no finished run yet; a result without a success rate means 'return' anyway. */
  measure?: SweepMeasure;
}

/** The measure a summary compares variants by. */
export function sweepMeasure(summary: Pick<SweepSummary, 'rankedBy'>): SweepMeasure {
  return summary.rankedBy === 'return' ? 'return' : 'success';
}

/** A variant's figure under the summary's measure. */
export function measureSpread(variant: VariantSummary): Spread {
  const figure = variant.success ?? variant.return;
  if (!figure) throw new RangeError(`variant ${variant.variant} has neither a success nor a return summary`);
  return figure;
}

/** Summaries for the variants with at least one finished run: in plan order, or best first when measured by return. */
export function summarizeSweep(
  plan: { preset: string; task: string; variants: readonly string[]; runs: readonly unknown[] },
  results: readonly SweepRunResult[],
  evaluation: { episodes: number; seed: number },
  options: SummarizeOptions = {},
): SweepSummary {
  // A success spread over runs that have no success rate means nothing, so one such run decides.
  const measure: SweepMeasure = results.some((result) => result.successRate === null) ? 'return' : options.measure ?? 'success';
  const summaries: VariantSummary[] = [];
  for (const variant of plan.variants) {
    const runs = results.filter((result) => result.variant === variant).sort((a, b) => a.seed - b.seed);
    if (runs.length === 0) continue;
    summaries.push({
      variant,
      seeds: runs.map((run) => run.seed),
      success: measure === 'success' ? spread(runs.map((run) => run.successRate!)) : null,
      ...(measure === 'return' ? { return: spread(runs.map((run) => run.meanReturn)) } : {}),
      envSteps: Math.round(runs.reduce((sum, run) => sum + run.envSteps, 0) / runs.length),
      wallSeconds: spread(runs.map((run) => run.wallSeconds)),
      vsBaseline: null,
    });
  }
  const baseline = summaries.find((summary) => summary.variant === (options.baseline ?? 'baseline'));
  if (baseline) for (const summary of summaries) if (summary !== baseline) summary.vsBaseline = measureSpread(summary).mean - measureSpread(baseline).mean;
  // Array.sort is stable: equal returns keep plan order.
  if (measure === 'return') summaries.sort((a, b) => measureSpread(b).mean - measureSpread(a).mean);
  return {
    preset: plan.preset, task: plan.task, evalEpisodes: evaluation.episodes, evalSeed: evaluation.seed,
    finishedRuns: results.length, plannedRuns: plan.runs.length, ...(measure === 'return' ? { rankedBy: 'return' as const } : {}), variants: summaries,
  };
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const signed = (value: number, text: string) => `${value >= 0 ? '+' : '−'}${text}`;

/** summary.md: a heading line, which measure compares the variants, and one table row per variant. */
export function formatSweepSummary(summary: SweepSummary): string {
  const byReturn = sweepMeasure(summary) === 'return';
  const evaluation = `the deterministic policy on ${summary.evalEpisodes} episodes from reset seed ${summary.evalSeed}, the same for every run`;
  const lines = [
    `# ${summary.preset} on ${summary.task}`,
    '',
    byReturn
      ? `${summary.finishedRuns} of ${summary.plannedRuns} runs finished. The task has no success rule, so variants are ranked by final mean return (best first) of ${evaluation}.`
      : `${summary.finishedRuns} of ${summary.plannedRuns} runs finished. Final success of ${evaluation}.`,
    '',
    byReturn
      ? '| rank | variant | seeds | return mean ± std | vs baseline | env steps | wall-clock per run |'
      : '| variant | seeds | success mean ± std | vs baseline | env steps | wall-clock per run |',
    byReturn ? '|---|---|---|---|---|---|---|' : '|---|---|---|---|---|---|',
  ];
  summary.variants.forEach((variant, index) => {
    const figure = measureSpread(variant);
    const cells = byReturn
      ? [`${index + 1}`, variant.variant, variant.seeds.join(', '), `${figure.mean.toFixed(2)} ± ${figure.std.toFixed(2)}`,
        variant.vsBaseline === null ? '—' : signed(variant.vsBaseline, Math.abs(variant.vsBaseline).toFixed(2))]
      : [variant.variant, variant.seeds.join(', '), `${percent(figure.mean)} ± ${percent(figure.std)}`,
        variant.vsBaseline === null ? '—' : signed(variant.vsBaseline, `${(Math.abs(variant.vsBaseline) * 100).toFixed(1)} pts`)];
    cells.push(variant.envSteps.toLocaleString('en-US'), `${(variant.wallSeconds.mean / 60).toFixed(1)} min`);
    lines.push(`| ${cells.join(' | ')} |`);
  });
  return `${lines.join('\n')}\n`;
}
