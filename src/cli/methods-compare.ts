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
import { keptFromTable, keptPage } from './kept-rows';
import { UsageError } from './cli-args';
import { METHOD_ROWS, METHODS, methodOnRow, runName, signatureMismatch, startFileName, type Method, type MethodId, type RunSignature } from './methods';
import { curvesFileName, curvesJson, readKeptCurves, seedCurve, type MethodSeedCurve, type RowCurves } from './methods-curves';
import { methodsFigureSvg, runCurve, type MethodCurves } from './methods-figure';
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

/** A row's methods kept from the page (keep=TASK:METHOD): our cells by method label. */
type KeptRows = ReadonlyMap<MethodId, readonly string[]>;

/** One row evaluated (args.out: the page it goes to): its methods' results, and their seeds' curves for the figure and its curves file. */
async function rowResults(args: MethodsArgs, row: string, seeds: readonly number[], keptRows: KeptRows, makeEvaluator: typeof evaluator): Promise<{ task: MethodsTask; curves: MethodCurves[]; rowCurves: RowCurves }> {
  const hasSuccess = taskHasSuccess(taskOfRow(row));
  const measure: Measure = hasSuccess ? 'success' : 'return';
  const evaluate = once(makeEvaluator(args, row));
  const methods: MethodResult[] = [];
  const curves: MethodCurves[] = [];
  const rowCurves: RowCurves = {};
  const kept = new Map<string, readonly string[]>();
  for (const method of METHODS) {
    const onRow = methodOnRow(row, hasSuccess, method.id);
    if ('notApplicable' in onRow) {
      methods.push({ id: method.id, notApplicable: onRow.notApplicable, seeds: [] });
      curves.push({ label: method.label, curves: [], missing: 'n/a' });
      continue;
    }
    const keptCells = keptRows.get(method.id);
    if (keptCells) {
      kept.set(method.label, keptCells);
      const keptCurves = readKeptCurves(path.dirname(args.out), row, method.id);
      if (keptCurves) rowCurves[method.id] = keptCurves;
      curves.push({ label: method.label, curves: keptCurves ?? [], missing: 'carried over, its curves not kept' });
      continue;
    }
    const seedResults: MethodSeed[] = [];
    const seedCurves: MethodSeedCurve[] = [];
    for (const seed of seeds) {
      const run = finishedRun(args, row, hasSuccess, method, seed);
      if (!run) continue;
      seedResults.push({ seed, measure: measureOf(await evaluate(run.final), measure), ...lastRecord(run.dir, run.records) });
      seedCurves.push(seedCurve(seed, runCurve(run.records, measure)));
    }
    if (seedResults.length === 0) {
      console.error(`warning: ${args.runs} holds no finished ${runName(row, hasSuccess, method.id, '<seed>')} run for seeds ${seeds.join(', ')}; ${row}'s ${method.label} row reads "not run"`);
    } else {
      rowCurves[method.id] = seedCurves;
    }
    const startName = startFileName(row, method.id);
    const startFile = startName && path.join(args.ckpts, startName);
    // The BC checkpoint's own figure shows even before its runs finish ("59.0% | not run").
    const start = startFile === undefined ? null : existsSync(startFile) ? measureOf(await evaluate(startFile), measure) : undefined;
    methods.push({ id: method.id, start, seeds: seedResults });
    curves.push({ label: method.label, curves: seedCurves });
  }
  return { task: { task: row, measure, methods, ...(kept.size > 0 ? { kept } : {}) }, curves, rowCurves };
}

/**
 * keep= split into whole tasks (TASK: its table carried over, not evaluated) and single rows of evaluated
 * tasks (TASK:METHOD), each row's cells read from the page; every problem is one sentence.
 */
function keptRowsOf(keep: string, rows: readonly string[], out: string): { tasks: string; rows: Map<string, Map<MethodId, readonly string[]>> } {
  const entries = keep.split(',').map((entry) => entry.trim()).filter(Boolean);
  const single = entries.filter((entry) => entry.includes(':'));
  const kept = new Map<string, Map<MethodId, readonly string[]>>();
  if (single.length > 0) {
    const page = keptPage(out);
    for (const entry of single) {
      const [row, id] = entry.split(':');
      const method = METHODS.find((candidate) => candidate.id === id);
      if (!method) throw new UsageError('keep', `${entry}: no method '${id}'; the methods are ${METHODS.map((candidate) => candidate.id).join(', ')}`);
      if (!rows.includes(row)) throw new UsageError('keep', `${entry} keeps one row of ${row}, which tasks= does not evaluate; keep=${row} keeps its whole table`);
      const cells = keptMethodSection(page, row)?.kept?.get(method.label);
      if (!cells || cells[1] === 'not run') throw new UsageError('keep', `${out} has no ${row} ${method.label} results to keep`);
      if (!kept.has(row)) kept.set(row, new Map());
      kept.get(row)!.set(method.id, cells);
    }
  }
  return { tasks: entries.filter((entry) => !entry.includes(':')).join(','), rows: kept };
}

/**
 * The page's tables in the methods' row order (hopper, walker2d, pick-cube, pick-cube-rgb), so a page filled a few rows
 * at a time reads the same whichever tasks one command evaluated and which it kept; other tasks follow as named.
 */
export function inRowOrder<T extends { task: string }>(tasks: readonly T[]): T[] {
  const rank = (task: string) => { const index = METHOD_ROWS.indexOf(task); return index < 0 ? METHOD_ROWS.length : index; };
  return [...tasks].sort((a, b) => rank(a.task) - rank(b.task));
}

export async function compareMethods(args: MethodsArgs, rows: readonly string[], seeds: readonly number[], makeEvaluator: typeof evaluator = evaluator): Promise<void> {
  const published = JSON.parse(readFileSync(PUBLISHED_METHODS, 'utf8')) as PublishedMethods;
  const out = args.out || METHODS_PAGE;
  const keep = keptRowsOf(args.keep, rows, out);
  const kept = keptFromTable({ keep: keep.tasks, out }, rows, keptMethodSection);
  const tasks: MethodsTask[] = [];
  for (const row of rows) {
    const { task, curves, rowCurves } = await rowResults({ ...args, out }, row, seeds, keep.rows.get(row) ?? new Map(), makeEvaluator);
    if (curves.some((curve) => curve.curves.length > 0)) {
      const figure = `methods-${row}.svg`;
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(path.join(path.dirname(out), figure), methodsFigureSvg(row, task.measure, curves));
      writeFileSync(path.join(path.dirname(out), curvesFileName(row)), curvesJson(rowCurves));
      task.figure = figure;
    }
    tasks.push(task);
  }
  for (const [task, section] of kept) tasks.push({ task, ...section });
  writeTable(formatMethodsTable(inRowOrder(tasks), published, { episodes: args.episodes, seed: args.seed, wallNote: args.wall_note }), out);
}
