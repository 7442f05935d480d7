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
