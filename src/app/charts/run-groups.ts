/**
 * Runs grouped by the value of one config key (as W&B groups runs): each group is drawn as the
 * mean of its runs' smoothed curves with a min–max band, so a sweep's seeds read as one curve.
 */
import { formatFieldValue, getField, type ConfigKey, type RunConfig } from '../../core/config';
import type { ChartRow, RunSeries } from './chart-data';

export interface RunGroup<T> {
  /** The key's value, as the config diff writes it. */
  value: string;
  runs: T[];
}

/** Runs with the same value of `key`, groups in the order their first run comes; runs without a config are left out. */
export function groupRunsBy<T extends { config?: RunConfig }>(runs: readonly T[], key: ConfigKey): RunGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const run of runs) {
    if (!run.config) continue;
    const value = formatFieldValue(getField(run.config, key));
    groups.set(value, [...(groups.get(value) ?? []), run]);
  }
  return [...groups].map(([value, members]) => ({ value, runs: members }));
}

/** A group's curve: at each x, the mean, lowest and highest of its runs' smoothed values. */
export interface GroupBand {
  xs: number[];
  mean: number[];
  min: number[];
  max: number[];
  /** Runs that drew a curve. */
  runs: number;
}

/** The value of ascending rows at x, linearly between the nearest rows (x inside their range). */
function valueAt(rows: readonly ChartRow[], x: number): number {
  const hi = rows.findIndex((row) => row.x >= x);
  if (hi <= 0) return rows[Math.max(0, hi)].smooth;
  const lo = hi - 1;
  const span = rows[hi].x - rows[lo].x;
  return span > 0 ? rows[lo].smooth + ((rows[hi].smooth - rows[lo].smooth) * (x - rows[lo].x)) / span : rows[hi].smooth;
}

/**
 * Mean and min–max of the runs' smoothed curves over the x range they all cover, on the x values
 * of the run with the most rows there (seeds of one config log the same env steps, so this is
 * usually exact); undefined when no run drew anything or the ranges do not overlap.
 */
export function groupBand(series: readonly RunSeries[]): GroupBand | undefined {
  const drawn = series.filter((entry) => entry.rows.length > 0);
  if (drawn.length === 0) return undefined;
  const start = Math.max(...drawn.map((entry) => entry.rows[0].x));
  const end = Math.min(...drawn.map((entry) => entry.rows[entry.rows.length - 1].x));
  if (start > end) return undefined;
  const inRange = (entry: RunSeries) => entry.rows.filter((row) => row.x >= start && row.x <= end);
  const xs = drawn.map(inRange).reduce((longest, rows) => (rows.length > longest.length ? rows : longest), [] as ChartRow[]).map((row) => row.x);
  const band: GroupBand = { xs, mean: [], min: [], max: [], runs: drawn.length };
  for (const x of xs) {
    const values = drawn.map((entry) => valueAt(entry.rows, x));
    band.mean.push(values.reduce((sum, value) => sum + value, 0) / values.length);
    band.min.push(Math.min(...values));
    band.max.push(Math.max(...values));
  }
  return band;
}
