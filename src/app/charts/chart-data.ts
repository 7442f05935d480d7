/**
 * Chart rows from metric records: the x axis (env steps or wall time), the raw
 * value, the debiased EMA of the recorded values, downsampled to at most
 * `maxPoints` rows (DESIGN.md §1 charts; smoothing and downsampling live in core).
 */
import { downsample, DEFAULT_MAX_POINTS, emaSmooth, type MetricKey, type MetricRecord } from '../../core/metrics';

export type XAxisKind = 'env_steps' | 'wall_time';

export interface ChartRow {
  x: number;
  raw: number;
  smooth: number;
}

export const X_KEYS: Record<XAxisKind, MetricKey> = { env_steps: 'progress/env_steps', wall_time: 'progress/wall_s' };

/** Rows of one metric: only records that measured it and have an x value, in record order. */
export function chartRows(records: readonly MetricRecord[], key: MetricKey, xAxis: XAxisKind, smoothing: number, maxPoints = DEFAULT_MAX_POINTS): ChartRow[] {
  const xKey = X_KEYS[xAxis];
  const measured = records.filter((record) => record[key] !== undefined && record[xKey] !== undefined);
  const raw = measured.map((record) => record[key] as number);
  const smooth = emaSmooth(raw, smoothing);
  const rows = measured.map((record, index) => ({ x: record[xKey] as number, raw: raw[index], smooth: smooth[index] }));
  return downsample(rows, (row) => row.smooth, maxPoints);
}

/** A run drawn on the charts' overlay. */
export interface OverlayRun {
  id: string;
  name: string;
  colour: string;
  /** Toggled off in the legend. */
  hidden: boolean;
  /** Undefined while its metrics are not loaded. */
  records?: readonly MetricRecord[];
}

/** One run's rows of one metric, on the run's own x values. */
export interface RunSeries {
  runId: string;
  name: string;
  colour: string;
  rows: ChartRow[];
}

/** Each run keeps at least this many rows when the point budget is split. */
const MIN_POINTS_PER_RUN = 200;

/**
 * Rows of one metric for every visible run that measured it, in the order given. Hidden runs,
 * runs not loaded yet and runs without the metric draw nothing. `maxPoints` is shared by the
 * runs, so an overlay of many runs costs about as much to draw as one long run.
 */
export function overlaySeries(runs: readonly OverlayRun[], key: MetricKey, xAxis: XAxisKind, smoothing: number, maxPoints = DEFAULT_MAX_POINTS): RunSeries[] {
  const visible = runs.filter((run) => !run.hidden && run.records !== undefined);
  const perRun = Math.max(MIN_POINTS_PER_RUN, Math.floor(maxPoints / Math.max(1, visible.length)));
  const series: RunSeries[] = [];
  for (const run of visible) {
    const rows = chartRows(run.records ?? [], key, xAxis, smoothing, perRun);
    if (rows.length > 0) series.push({ runId: run.id, name: run.name, colour: run.colour, rows });
  }
  return series;
}

/** The x range covering every run's rows; [0, 1] with none. */
export function overlayXDomain(series: readonly RunSeries[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const { rows } of series) {
    if (rows.length === 0) continue;
    lo = Math.min(lo, rows[0].x);
    hi = Math.max(hi, rows[rows.length - 1].x);
  }
  return Number.isFinite(lo) ? [lo, hi] : [0, 1];
}
