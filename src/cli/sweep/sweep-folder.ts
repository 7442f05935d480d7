/**
 * A sweep folder (DESIGN.md §11): `sweep.json` (the plan and how runs are evaluated), `runs/<id>/`
 * (ordinary run folders, each with `result.json` once evaluated), and, as runs finish,
 * `summary.json`, `summary.md` and `learning-curves.svg` (and `.png` where Chromium is found).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { emaSmooth, metricSeries, type MetricKey } from '../../core/metrics';
import { taskHasSuccess } from '../../core/rl/evaluate';
import { readMetricsFile } from '../metrics-file';
import type { SweepPlan } from '../../core/sweep/sweep-plan';
import { formatSweepSummary, summarizeSweep, sweepMeasure, type SweepRunResult, type SweepSummary } from '../../core/sweep/sweep-summary';
import { UsageError } from '../cli-args';
import { makeFolder, writeFileDurable } from '../durable-write';
import { learningCurveSvg, type CurveSeries } from '../learning-curve-svg';
import { renderSvgToPng } from '../svg-png';

export interface SweepFile {
  plan: SweepPlan;
  /** The checkpoint every run starts from; '' starts each from a fresh policy. */
  ckpt: string;
  /** Absolute path of a user's task (plan.task names it); absent for a built-in task. */
  taskSource?: string;
  /** Hash of the task's scene and module (DESIGN.md §13): a sweep worker refuses a run whose task differs. */
  taskHash: string;
  evaluation: { episodes: number; seed: number };
}

export const runDirOf = (out: string, id: string) => path.join(out, 'runs', id);
const resultPath = (out: string, id: string) => path.join(runDirOf(out, id), 'result.json');
export const finalCheckpointOf = (out: string, id: string) => path.join(runDirOf(out, id), 'checkpoints', 'final.flowtune');

export function readSweepFile(out: string): SweepFile | undefined {
  const file = path.join(out, 'sweep.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SweepFile;
  } catch (error) {
    throw new UsageError('out', `${file} is not a readable sweep plan (${(error as Error).message})`);
  }
}

/**
 * Writes sweep.json; a folder that already holds a sweep must hold the same one (preset, task,
 * base overrides, checkpoint and evaluation), so its finished runs can be reused.
 */
export function writeSweepFile(out: string, sweep: SweepFile): void {
  const existing = readSweepFile(out);
  if (existing) {
    const settings = (file: SweepFile) => JSON.stringify([file.plan.preset, file.plan.task, file.plan.base, file.ckpt, file.evaluation]);
    if (existing.taskHash !== undefined && existing.taskHash !== sweep.taskHash) {
      throw new UsageError('task', `${out} holds a sweep on another version of task '${sweep.plan.task}' (its scene or module changed since); use another out=`);
    }
    if (settings(existing) !== settings(sweep)) {
      throw new UsageError('out', `${out} holds a sweep with other settings (preset, task, base overrides, checkpoint or evaluation); use another out=`);
    }
  }
  makeFolder(path.join(out, 'runs'));
  writeFileDurable(path.join(out, 'sweep.json'), `${JSON.stringify(sweep, null, 2)}\n`);
}

/** A run's result.json; one that cannot be read counts as no result (the run is trained again), with a warning. */
export function readRunResult(out: string, id: string): SweepRunResult | undefined {
  const file = resultPath(out, id);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SweepRunResult;
  } catch (error) {
    console.error(`warning: ${file} cannot be read (${(error as Error).message}); the run counts as unfinished`);
    return undefined;
  }
}

export function writeRunResult(out: string, result: SweepRunResult): void {
  writeFileDurable(resultPath(out, result.id), `${JSON.stringify(result, null, 2)}\n`);
}

/** The finished runs' results in plan order. */
export function finishedResults(out: string, plan: SweepPlan): SweepRunResult[] {
  return plan.runs.map((run) => readRunResult(out, run.id)).filter((result): result is SweepRunResult => result !== undefined);
}

/** Per variant, the rollout curve of `metric` averaged over its finished seeds (EMA 0.9), against env steps. */
function variantCurves(out: string, plan: SweepPlan, results: readonly SweepRunResult[], metric: MetricKey): CurveSeries[] {
  const series: CurveSeries[] = [];
  for (const variant of plan.variants) {
    const curves = results.filter((result) => result.variant === variant).map((result) => {
      const records = readMetricsFile(path.join(runDirOf(out, result.id), 'metrics.jsonl'));
      const points = metricSeries(records, metric, 'progress/env_steps');
      return { x: Array.from(points.xs), y: Array.from(emaSmooth(points.ys, 0.9)) };
    });
    if (curves.length === 0) continue;
    const length = Math.min(...curves.map((curve) => curve.y.length));
    const y = Array.from({ length }, (_, index) => curves.reduce((sum, curve) => sum + curve.y[index], 0) / curves.length);
    series.push({ label: `${variant} (${curves.length} seed${curves.length > 1 ? 's' : ''})`, x: curves[0].x.slice(0, length), y });
  }
  return series;
}

/** Rewrites summary.json, summary.md and the overlay plot from every finished run. */
export async function writeSummary(out: string, sweep: SweepFile): Promise<SweepSummary> {
  const results = finishedResults(out, sweep.plan);
  const summary = summarizeSweep(sweep.plan, results, sweep.evaluation, { measure: taskHasSuccess(sweep.plan.task) ? 'success' : 'return' });
  writeFileDurable(path.join(out, 'summary.json'), `${JSON.stringify({ ...summary, runs: results }, null, 2)}\n`);
  writeFileDurable(path.join(out, 'summary.md'), formatSweepSummary(summary));
  // A task without a success rule is compared by return, so its curves plot the rollout return.
  const byReturn = sweepMeasure(summary) === 'return';
  const curves = variantCurves(out, sweep.plan, results, byReturn ? 'charts/episode_return' : 'charts/success_rate');
  const svg = learningCurveSvg(curves, byReturn
    ? { title: `${sweep.plan.preset} on ${sweep.plan.task}: rollout return (EMA 0.9, mean over seeds)`, xLabel: 'env steps', yLabel: 'episode return' }
    : { title: `${sweep.plan.preset} on ${sweep.plan.task}: rollout success (EMA 0.9, mean over seeds)`, xLabel: 'env steps', yLabel: 'success rate' });
  writeFileDurable(path.join(out, 'learning-curves.svg'), svg);
  try {
    await renderSvgToPng(svg, path.join(out, 'learning-curves.png'));
  } catch (error) {
    console.error(`warning: learning-curves.png not written (${(error as Error).message}); learning-curves.svg is`);
  }
  return summary;
}
