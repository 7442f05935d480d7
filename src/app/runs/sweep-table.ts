/** Text of an imported sweep's summary table, as summary.md words it (DESIGN.md §11). */
import { measureSpread, sweepMeasure, type SweepSummary } from '../../core/sweep/sweep-summary';

export interface SweepTableRow {
  variant: string;
  seeds: string;
  /** "62.5% ± 4.1%"; the mean return, "-123.45 ± 6.78", for a sweep measured by return. */
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
  const measure = sweepMeasure(summary) === 'return' ? 'final mean return (no success rule; best first)' : 'final success';
  return `${summary.finishedRuns} of ${summary.plannedRuns} runs finished; ${measure} of the deterministic policy, on ${summary.evalEpisodes} episodes from seed ${summary.evalSeed}`;
}

export function sweepTableRows(summary: SweepSummary): SweepTableRow[] {
  return summary.variants.map((variant) => ({
    variant: variant.variant,
    seeds: variant.seeds.join(', '),
    // A task without a success rule has no success spread: its sweep is measured by return.
    success: variant.success ? `${percent(variant.success.mean)} ± ${percent(variant.success.std)}` : `${measureSpread(variant).mean.toFixed(2)} ± ${measureSpread(variant).std.toFixed(2)}`,
    vsBaseline: variant.vsBaseline === null ? '—' : `${variant.vsBaseline >= 0 ? '+' : '−'}${variant.success ? `${(Math.abs(variant.vsBaseline) * 100).toFixed(1)} pts` : Math.abs(variant.vsBaseline).toFixed(2)}`,
    envSteps: variant.envSteps.toLocaleString('en-US'),
    wallClock: variant.wallSeconds.mean < 60 ? `${Math.round(variant.wallSeconds.mean)} s` : `${(variant.wallSeconds.mean / 60).toFixed(1)} min`,
  }));
}
