import path from 'node:path';
import { applyOverrides, defaultConfig } from '../../core/config';
import type { SweepRun } from '../../core/sweep/sweep-plan';
import type { SweepRunResult } from '../../core/sweep/sweep-summary';
import { evaluateCheckpoint } from '../evaluate-checkpoint';
import { readMetricsFile } from '../metrics-file';

/** A finished run folder's result: its final checkpoint on the sweep's fresh seeds, and the env steps and wall-clock it logged. */
export async function evaluateRun(runDir: string, task: string, run: SweepRun, evaluation: { episodes: number; seed: number }): Promise<SweepRunResult> {
  const config = applyOverrides(defaultConfig(), [`task=${task}`]);
  const result = await evaluateCheckpoint(path.join(runDir, 'checkpoints', 'final.flowtune'), config, [], { ...evaluation, batch: Math.min(evaluation.episodes, 100) });
  const records = readMetricsFile(path.join(runDir, 'metrics.jsonl'));
  const last = records.at(-1) ?? {};
  return {
    id: run.id, variant: run.variant, seed: run.seed, successRate: result.success_rate ?? null, meanReturn: result.mean_return,
    envSteps: Number(last['progress/env_steps'] ?? 0), wallSeconds: Number(last['progress/wall_s'] ?? 0),
  };
}

/** A finished run's figure for the sweep's log: "success 0.800", or "return -123.45" for a task without a success rule. */
export function describeRunResult(result: SweepRunResult): string {
  return result.successRate !== null ? `success ${result.successRate.toFixed(3)}` : `return ${result.meanReturn.toFixed(2)}`;
}
