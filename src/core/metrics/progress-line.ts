/**
 * The one-line-per-iteration progress text of the headless CLIs (DESIGN.md §4, §10).
 * Only the metrics a record has are shown, in a fixed order. A task without a success rule logs
 * no success rate, so its evaluation shows as its mean return instead.
 */
import type { MetricKey, MetricRecord } from './metric-keys';

interface Column {
  readonly key: MetricKey;
  readonly label: string;
  readonly format: (value: number) => string;
  /** Shown only when the record lacks this metric. */
  readonly unless?: MetricKey;
}

const fixed = (digits: number) => (value: number) => (Number.isFinite(value) ? value.toFixed(digits) : String(value));
const integer = (value: number) => (Number.isFinite(value) ? Math.round(value).toString() : String(value));

const COLUMNS: readonly Column[] = [
  { key: 'progress/env_steps', label: 'steps', format: integer },
  { key: 'charts/success_rate', label: 'success', format: fixed(3) },
  { key: 'charts/episode_return', label: 'return', format: fixed(2) },
  { key: 'eval/success_rate', label: 'eval', format: fixed(3) },
  { key: 'eval/episode_return', label: 'eval_return', format: fixed(2), unless: 'eval/success_rate' },
  { key: 'losses/policy', label: 'pi', format: fixed(4) },
  { key: 'losses/value', label: 'v', format: fixed(4) },
  { key: 'losses/approx_kl', label: 'kl', format: fixed(5) },
  { key: 'losses/clip_fraction', label: 'clip', format: fixed(3) },
  { key: 'noise/std', label: 'std', format: fixed(3) },
  { key: 'perf/env_steps_per_s', label: 'sps', format: integer },
];

/** e.g. "iter 3/10 steps 6144 success 0.450 kl 0.00400 sps 812". */
export function formatProgressLine(record: MetricRecord, totalIterations?: number): string {
  const iteration = record['progress/iteration'];
  const parts: string[] = [];
  if (iteration !== undefined) parts.push(`iter ${integer(iteration)}${totalIterations !== undefined ? `/${totalIterations}` : ''}`);
  for (const column of COLUMNS) {
    const value = record[column.key];
    if (value !== undefined && (column.unless === undefined || record[column.unless] === undefined)) parts.push(`${column.label} ${column.format(value)}`);
  }
  return parts.join(' ');
}
