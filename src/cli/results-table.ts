/**
 * The README's results table from measured numbers: per task, the BC checkpoint's success,
 * each fine-tuning seed's final success (all on the same fresh eval seeds), their mean and
 * spread, and the env steps and wall-clock each run logged. A task without a success rule
 * (DESIGN.md §13) is measured by final mean return instead, in a table of its own.
 */
export interface SeedResult {
  seed: number;
  /** null for a task without a success rule: meanReturn measures the run. */
  successRate: number | null;
  meanReturn?: number;
  envSteps: number;
  wallSeconds: number;
}

export interface TaskResult {
  task: string;
  /** null for a task without a success rule: bcMeanReturn measures the BC checkpoint. */
  bcSuccessRate: number | null;
  bcMeanReturn?: number;
  seeds: SeedResult[];
  episodes: number;
}

import { spread } from '../core/metrics/spread';

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const fixed = (value: number) => value.toFixed(2);

/** True when the task's rows are measured by return. */
const byReturn = (result: TaskResult) => result.bcSuccessRate === null || result.seeds.some((seed) => seed.successRate === null);

function row(result: TaskResult, measured: boolean): string {
  // Return rows read return; a missing figure shows as NaN rather than as a made-up number.
  const value = (success: number | null, ret: number | undefined) => (measured ? ret ?? NaN : success ?? NaN);
  const format = measured ? fixed : percent;
  const figure = spread(result.seeds.map((seed) => value(seed.successRate, seed.meanReturn)));
  const steps = spread(result.seeds.map((seed) => seed.envSteps));
  const minutes = spread(result.seeds.map((seed) => seed.wallSeconds / 60));
  return [
    result.task,
    format(value(result.bcSuccessRate, result.bcMeanReturn)),
    result.seeds.map((seed) => `s${seed.seed}: ${format(value(seed.successRate, seed.meanReturn))}`).join(', '),
    `${format(figure.mean)} ± ${format(figure.std)} (${format(figure.min)}–${format(figure.max)})`,
    `${Math.round(steps.mean).toLocaleString('en-US')}`,
    `${minutes.mean.toFixed(1)} min (${minutes.min.toFixed(1)}–${minutes.max.toFixed(1)})`,
  ].join(' | ').replace(/^/, '| ').replace(/$/, ' |');
}

/** A markdown table, one row per task; tasks without a success rule follow in a second table ranked by return. */
export function formatResultsTable(results: readonly TaskResult[]): string {
  const bySuccess = results.filter((result) => !byReturn(result));
  const byMeanReturn = results.filter(byReturn);
  const blocks: string[] = [];
  if (bySuccess.length > 0 || byMeanReturn.length === 0) {
    blocks.push([
      '| task | BC success | PPO success per seed | PPO mean ± std (min–max) | env steps per run | wall-clock per run |',
      '|---|---|---|---|---|---|',
      ...bySuccess.map((result) => row(result, false)),
    ].join('\n'));
  }
  if (byMeanReturn.length > 0) {
    blocks.push([
      'Tasks without a success rule, measured by final mean return:',
      '',
      '| task | BC return | PPO return per seed | PPO mean ± std (min–max) | env steps per run | wall-clock per run |',
      '|---|---|---|---|---|---|',
      ...byMeanReturn.map((result) => row(result, true)),
    ].join('\n'));
  }
  return `${blocks.join('\n\n')}\n`;
}
