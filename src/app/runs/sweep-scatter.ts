/**
 * A sweep's runs as points: a numeric config key they differ on against their final eval result
 * (W&B's sweep scatter), so which settings did well reads at a glance.
 */
import { getField, isNumericKey, type ConfigKey, type RunConfig } from '../../core/config';
import { latestMetric, type MetricRecord } from '../../core/metrics';

export interface ScatterRun {
  id: string;
  name: string;
  colour: string;
  config?: RunConfig;
  records?: readonly MetricRecord[];
}

export interface ScatterPoint {
  id: string;
  name: string;
  colour: string;
  x: number;
  y: number;
}

/** The numeric keys among `keys` (the ones the runs differ on): what the x axis can show. */
export function scatterKeys(keys: readonly ConfigKey[]): ConfigKey[] {
  return keys.filter((key) => isNumericKey(key));
}

/**
 * One point per run with a config and a final eval value: x the run's value of `key`, y its newest
 * eval/success_rate (or eval/episode_return when `metric` says so). Sorted by x, then y.
 */
export function scatterPoints(runs: readonly ScatterRun[], key: ConfigKey, metric: 'eval/success_rate' | 'eval/episode_return'): ScatterPoint[] {
  const points: ScatterPoint[] = [];
  for (const run of runs) {
    if (!run.config || !run.records) continue;
    const x = getField(run.config, key);
    const y = latestMetric(run.records, metric);
    if (typeof x !== 'number' || y === undefined || !Number.isFinite(y)) continue;
    points.push({ id: run.id, name: run.name, colour: run.colour, x, y });
  }
  return points.sort((a, b) => a.x - b.x || a.y - b.y);
}
