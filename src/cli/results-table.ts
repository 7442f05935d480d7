/**
 * The README's results table from measured numbers: per task, the BC checkpoint's success,
 * each fine-tuning seed's final success (all on the same fresh eval seeds), their mean and
 * spread, and the env steps and wall-clock each run logged.
 */
export interface SeedResult {
  seed: number;
  successRate: number;
  envSteps: number;
  wallSeconds: number;
}

export interface TaskResult {
  task: string;
  bcSuccessRate: number;
  seeds: SeedResult[];
  episodes: number;
}

import { spread } from '../core/metrics/spread';

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** A markdown table, one row per task. */
export function formatResultsTable(results: readonly TaskResult[]): string {
  const lines = [
    '| task | BC success | PPO success per seed | PPO mean ± std (min–max) | env steps per run | wall-clock per run |',
    '|---|---|---|---|---|---|',
  ];
  for (const result of results) {
    const success = spread(result.seeds.map((seed) => seed.successRate));
    const steps = spread(result.seeds.map((seed) => seed.envSteps));
    const minutes = spread(result.seeds.map((seed) => seed.wallSeconds / 60));
    lines.push([
      result.task,
      percent(result.bcSuccessRate),
      result.seeds.map((seed) => `s${seed.seed}: ${percent(seed.successRate)}`).join(', '),
      `${percent(success.mean)} ± ${percent(success.std)} (${percent(success.min)}–${percent(success.max)})`,
      `${Math.round(steps.mean).toLocaleString('en-US')}`,
      `${minutes.mean.toFixed(1)} min (${minutes.min.toFixed(1)}–${minutes.max.toFixed(1)})`,
    ].join(' | ').replace(/^/, '| ').replace(/$/, ' |'));
  }
  return `${lines.join('\n')}\n`;
}
