/** Text of an imported sweep's summary table, as summary.md words it (DESIGN.md §11). */
import type { SweepSummary } from '../../core/sweep/sweep-summary';

export interface SweepTableRow {
  variant: string;
  seeds: string;
  /** "62.5% ± 4.1%" */
  success: string;
  /** "+3.2 pts", "−1.0 pts", or "—" without a baseline to compare with. */
  vsBaseline: string;
  envSteps: string;
  /** Mean wall-clock per run, "12.3 min", or "42 s" under a minute. */
  wallClock: string;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** "6 of 6 runs finished; final success of the deterministic policy, on 20 episodes from seed 1000" */
export function sweepHeading(summary: SweepSummary): string {
  return `${summary.finishedRuns} of ${summary.plannedRuns} runs finished; final success of the deterministic policy, on ${summary.evalEpisodes} episodes from seed ${summary.evalSeed}`;
}

export function sweepTableRows(summary: SweepSummary): SweepTableRow[] {
  return summary.variants.map((variant) => ({
    variant: variant.variant,
    seeds: variant.seeds.join(', '),
    success: `${percent(variant.success.mean)} ± ${percent(variant.success.std)}`,
    vsBaseline: variant.vsBaseline === null ? '—' : `${variant.vsBaseline >= 0 ? '+' : '−'}${(Math.abs(variant.vsBaseline) * 100).toFixed(1)} pts`,
    envSteps: variant.envSteps.toLocaleString('en-US'),
    wallClock: variant.wallSeconds.mean < 60 ? `${Math.round(variant.wallSeconds.mean)} s` : `${(variant.wallSeconds.mean / 60).toFixed(1)} min`,
  }));
}
