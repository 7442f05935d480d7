/**
 * What every `npm run results` comparison shares: a row's checkpoints evaluated on the same fresh
 * seeds, a run folder's records, and the table printed and written.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyOverrides, defaultConfig } from '../core/config';
import type { MetricRecord } from '../core/metrics';
import { evalMeasureText } from '../core/rl/evaluate';
import { UsageError } from './cli-args';
import { evaluateCheckpoint } from './evaluate-checkpoint';
import { metricsFromText } from './metrics-file';
import { taskOfRow } from './task-row';

export type ResultsArgs = { tasks: string; runs: string; ckpts: string; episodes: number; seed: number; out: string };

/** A checkpoint's final figures: successRate is null for a task without a success rule. */
export type Measured = { successRate: number | null; meanReturn: number };

/** Evaluates a checkpoint file of a row's task on `episodes` fresh seeds from `seed`. */
export type Evaluate = (file: string) => Promise<Measured>;

/** The evaluation of a row's checkpoints, each on `args.episodes` fresh seeds from `args.seed` (one line on stderr each). */
export function evaluator(args: Pick<ResultsArgs, 'episodes' | 'seed'>, row: string): Evaluate {
  const config = applyOverrides(defaultConfig(), [`task=${taskOfRow(row)}`]);
  return async (file) => {
    const result = await evaluateCheckpoint(file, config, [], { episodes: args.episodes, seed: args.seed, batch: Math.min(args.episodes, 100) });
    console.error(`${file}: ${evalMeasureText(result)} over ${result.episodes} episodes`);
    return { successRate: result.success_rate ?? null, meanReturn: result.mean_return };
  };
}

/** A run folder's metrics.jsonl records, refused in one sentence when it has none. */
export function runRecords(runDir: string): MetricRecord[] {
  const file = path.join(runDir, 'metrics.jsonl');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError('runs', `run folder ${runDir} has no metrics.jsonl; train it first (npm run reproduce -- ppo, or -- recipe)`);
  }
  const records = metricsFromText(text, file);
  if (records.length === 0) throw new UsageError('runs', `${file} has no records`);
  return records;
}

/** The env steps and wall-clock a run's last record logged. */
export function lastRecord(runDir: string, records: readonly MetricRecord[] = runRecords(runDir)): { envSteps: number; wallSeconds: number } {
  const last = records.at(-1)!;
  return { envSteps: Number(last['progress/env_steps']), wallSeconds: Number(last['progress/wall_s']) };
}

/** Prints the table, and writes it to `out` when one is named. */
export function writeTable(table: string, out: string): void {
  if (out) {
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, table);
  }
  process.stdout.write(table);
}
