/**
 * Sample efficiency as the results tables report it: the env steps a run had taken when its
 * smoothed curve first reached a threshold (the learning-curve plots' EMA, so the number can
 * be read off the plotted curve).
 */
import type { MetricKey, MetricRecord } from './metric-keys';
import { emaSmooth } from './smoothing';

/** `progress/env_steps` of the first record whose EMA-smoothed `key` is ≥ threshold; undefined if none is. */
export function envStepsToReach(records: readonly MetricRecord[], key: MetricKey, threshold: number, smoothing: number): number | undefined {
  const rows = records.filter((record) => Number.isFinite(record[key]));
  const smoothed = emaSmooth(rows.map((record) => record[key]!), smoothing);
  const index = smoothed.findIndex((value) => value >= threshold);
  return index < 0 ? undefined : rows[index]['progress/env_steps'];
}
