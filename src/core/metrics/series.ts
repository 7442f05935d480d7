/** Chart series from per-iteration metric records. */
import type { MetricKey, MetricRecord } from './metric-keys';

export interface MetricSeries {
  /** [N] x values (the x metric, or the record index when a record lacks it). */
  readonly xs: Float64Array;
  /** [N] y values. */
  readonly ys: Float64Array;
}

/** The records that have `key`, as (x, y) pairs in record order. */
export function metricSeries(records: readonly MetricRecord[], key: MetricKey, xKey: MetricKey = 'progress/iteration'): MetricSeries {
  const xs: number[] = [];
  const ys: number[] = [];
  records.forEach((record, recordIndex) => {
    const y = record[key];
    if (y === undefined) return;
    xs.push(record[xKey] ?? recordIndex);
    ys.push(y);
  });
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys) };
}

/** The last value of `key` in the records, or undefined when none has it. */
export function latestMetric(records: readonly MetricRecord[], key: MetricKey): number | undefined {
  for (let index = records.length - 1; index >= 0; index--) {
    const value = records[index][key];
    if (value !== undefined) return value;
  }
  return undefined;
}
