/**
 * `npm run results -- compare=methods`: for each row and each fine-tuning method (methods.ts), the BC
 * checkpoint it starts from and each seed's final checkpoint evaluated on the same fresh episodes,
 * env steps and wall-clock from each run's metrics.jsonl, written as public/results/methods.md with a
 * learning-curve figure per row beside it (methods-<row>.svg).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MetricRecord } from '../core/metrics';
import { taskHasSuccess } from '../core/rl/evaluate';
import { keptFromTable } from './kept-rows';
import { METHODS, methodOnRow, runName, signatureMismatch, startFileName, type Method, type RunSignature } from './methods';
import { methodsFigureSvg, type MethodCurves } from './methods-figure';
import { formatMethodsTable, keptMethodSection, type Measure, type MethodResult, type MethodSeed, type MethodsTask, type PublishedMethods } from './methods-table';
import { evaluator, lastRecord, runRecords, writeTable, type Evaluate, type Measured, type ResultsArgs } from './results-eval';
import { taskOfRow } from './task-row';

/** The published figures the page sits beside, with their sources. */
const PUBLISHED_METHODS = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'public', 'results', 'published-methods.json');

/** Where the page goes when out= names no file. */
export const METHODS_PAGE = 'public/results/methods.md';

export type MethodsArgs = ResultsArgs & { keep: string; wall_note: string };

/** A finished run of a method: its folder, final checkpoint and records. */
interface FinishedRun {
  dir: string;
  final: string;
  records: MetricRecord[];
}

/**
 * The seed's run of the method, or undefined when its folder holds none; a run that has not finished,
 * or that is another method's, is left out in one warning line.
 */
function finishedRun(args: MethodsArgs, row: string, hasSuccess: boolean, method: Method, seed: number): FinishedRun | undefined {
  const dir = path.join(args.runs, runName(row, hasSuccess, method.id, seed));
  if (!existsSync(path.join(dir, 'metrics.jsonl'))) return undefined;
  const configFile = path.join(dir, 'config.json');
  const other = existsSync(configFile) ? signatureMismatch(JSON.parse(readFileSync(configFile, 'utf8')) as RunSignature, method.id) : undefined;
  if (other) {
    console.error(`warning: ${dir} is left out of the ${method.label} row: ${other}`);
    return undefined;
  }
  const final = path.join(dir, 'checkpoints', 'final.flowtune');
  if (!existsSync(final)) {
    console.error(`warning: ${dir} has no checkpoints/final.flowtune (still training, or stopped before its end); left out of the table`);
    return undefined;
  }
  return { dir, final, records: runRecords(dir) };
}

/** The row's evaluation, each file evaluated once (two methods may start from one BC checkpoint). */
function once(evaluate: Evaluate): Evaluate {
  const done = new Map<string, Promise<Measured>>();
  return (file) => {
    if (!done.has(file)) done.set(file, evaluate(file));
    return done.get(file)!;
  };
}

function measureOf(measured: Measured, measure: Measure): number {
  return measure === 'success' ? measured.successRate ?? Number.NaN : measured.meanReturn;
}

/** One row evaluated: its methods' results, and their runs' records for the figure. */
async function rowResults(args: MethodsArgs, row: string, seeds: readonly number[], makeEvaluator: typeof evaluator): Promise<{ task: MethodsTask; curves: MethodCurves[] }> {
  const hasSuccess = taskHasSuccess(taskOfRow(row));
  const measure: Measure = hasSuccess ? 'success' : 'return';
  const evaluate = once(makeEvaluator(args, row));
  const methods: MethodResult[] = [];
  const curves: MethodCurves[] = [];
  for (const method of METHODS) {
    const onRow = methodOnRow(row, hasSuccess, method.id);
    if ('notApplicable' in onRow) {
      methods.push({ id: method.id, notApplicable: onRow.notApplicable, seeds: [] });
      curves.push({ label: method.label, runs: [], missing: 'n/a' });
      continue;
    }
    const seedResults: MethodSeed[] = [];
    const runs: MetricRecord[][] = [];
    for (const seed of seeds) {
      const run = finishedRun(args, row, hasSuccess, method, seed);
      if (!run) continue;
      seedResults.push({ seed, measure: measureOf(await evaluate(run.final), measure), ...lastRecord(run.dir, run.records) });
      runs.push(run.records);
    }
    if (seedResults.length === 0) {
      console.error(`warning: ${args.runs} holds no finished ${runName(row, hasSuccess, method.id, '<seed>')} run for seeds ${seeds.join(', ')}; ${row}'s ${method.label} row reads "not run"`);
    }
    const startName = startFileName(row, method.id);
    const startFile = startName && path.join(args.ckpts, startName);
    // The BC checkpoint's own figure shows even before its runs finish ("59.0% | not run").
    const start = startFile === undefined ? null : existsSync(startFile) ? measureOf(await evaluate(startFile), measure) : undefined;
    methods.push({ id: method.id, start, seeds: seedResults });
    curves.push({ label: method.label, runs });
  }
  return { task: { task: row, measure, methods }, curves };
}

export async function compareMethods(args: MethodsArgs, rows: readonly string[], seeds: readonly number[], makeEvaluator: typeof evaluator = evaluator): Promise<void> {
  const published = JSON.parse(readFileSync(PUBLISHED_METHODS, 'utf8')) as PublishedMethods;
  const out = args.out || METHODS_PAGE;
  const kept = keptFromTable({ keep: args.keep, out }, rows, keptMethodSection);
  const tasks: MethodsTask[] = [];
  for (const row of rows) {
    const { task, curves } = await rowResults(args, row, seeds, makeEvaluator);
    if (curves.some((curve) => curve.runs.length > 0)) {
      const figure = `methods-${row}.svg`;
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(path.join(path.dirname(out), figure), methodsFigureSvg(row, task.measure, curves));
      task.figure = figure;
    }
    tasks.push(task);
  }
  for (const [task, section] of kept) tasks.push({ task, ...section });
  writeTable(formatMethodsTable(tasks, published, { episodes: args.episodes, seed: args.seed, wallNote: args.wall_note }), out);
}
