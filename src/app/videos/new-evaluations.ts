/** Which evaluations a metrics update brought: the page records videos of those. */
import type { MetricRecord } from '../../core/metrics/metric-keys';

/**
 * Iterations of records appended since `previous` that carry an evaluation. A history
 * that was replaced (reset, resume) brings none: its evaluations are from the past.
 */
export function newEvaluations(previous: readonly MetricRecord[], next: readonly MetricRecord[]): number[] {
  if (next === previous || next.length <= previous.length) return [];
  if (previous.length > 0 && next[previous.length - 1] !== previous[previous.length - 1]) return [];
  return next.slice(previous.length)
    .filter((record) => record['eval/success_rate'] !== undefined && record['progress/iteration'] !== undefined)
    .map((record) => Number(record['progress/iteration']));
}
