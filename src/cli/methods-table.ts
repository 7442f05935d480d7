/**
 * `npm run results -- compare=methods`'s page (public/results/methods.md): per task, one row per
 * fine-tuning method with the success or return of the checkpoint it starts from and of each seed's
 * final checkpoint on the same fresh episodes (mean ± std over seeds), env steps, wall-clock and env
 * steps/s per run, beside the published figures (public/results/published-methods.json names each
 * source), and under the table the task's learning-curve figure.
 */
import { spread } from '../core/metrics/spread';
import { METHODS, type MethodId } from './methods';

export interface MethodSeed {
  seed: number;
  /** Success rate (0..1) or mean return, as the task is measured. */
  measure: number;
  envSteps: number;
  wallSeconds: number;
}

export interface MethodResult {
  id: MethodId;
  /** Why the method does not apply to the task; its row says so and holds nothing else. */
  notApplicable?: string;
  /** The measure of the checkpoint it starts from: null for a run from scratch, undefined when that checkpoint is not there. */
  start?: number | null;
  /** Its finished runs; none reads "not run". */
  seeds: MethodSeed[];
}

export type Measure = 'success' | 'return';

export interface MethodsTask {
  task: string;
  measure: Measure;
  /** Evaluated methods, in METHODS order; absent for a kept task. */
  methods?: MethodResult[];
  /**
   * Our cells carried over from an earlier page, by method label: the whole table of a kept task
   * (keep=TASK), or single rows of an evaluated one (keep=TASK:METHOD). The published cells are redrawn.
   */
  kept?: ReadonlyMap<string, readonly string[]>;
  /** The learning-curve figure beside the page, linked under the table. */
  figure?: string;
}

export interface PublishedMethods {
  methods: Record<MethodId, { source: string; tasks: Record<string, string> }>;
  /** Where no figure could be sourced, and why. */
  unsourced: string;
}

export interface MethodsPageOptions {
  episodes: number;
  /** The first evaluation reset seed. */
  seed: number;
  /** What shared the machine while the runs trained (wall_note=); empty when not said. */
  wallNote?: string;
}

/** Our columns, in table order: what keep= carries over. */
export const METHOD_OUR_COLUMNS = ['start (BC)', 'after fine-tuning per seed, mean ± std', 'env steps per run', 'wall-clock per run', 'env steps/s'] as const;
const HEADER = ['method', ...METHOD_OUR_COLUMNS, 'published'];
const MEASURE_HEADING: Record<Measure, string> = { success: 'success rate', return: 'return' };

function measureText(measure: Measure, value: number): string {
  return measure === 'success' ? `${(value * 100).toFixed(1)}%` : value.toFixed(0);
}

/** A figure's mean over seeds, with its range when the seeds differ. */
function meanRange(values: readonly number[], text: (value: number) => string, unit = ''): string {
  const { mean, min, max } = spread(values);
  return `${text(mean)}${unit}${values.length > 1 && min !== max ? ` (${text(min)}–${text(max)})` : ''}`;
}

/** Our cells of one evaluated method, in METHOD_OUR_COLUMNS order. */
function ourCells(result: MethodResult, measure: Measure): string[] {
  if (result.notApplicable !== undefined) return ['n/a', `n/a: ${result.notApplicable}`, '—', '—', '—'];
  const start = result.start === null ? '— (from scratch)' : result.start === undefined ? 'no BC checkpoint' : measureText(measure, result.start);
  const { seeds } = result;
  if (seeds.length === 0) return [start, 'not run', '—', '—', '—'];
  const figure = spread(seeds.map((seed) => seed.measure));
  const perSeed = seeds.map((seed) => `s${seed.seed} ${measureText(measure, seed.measure)}`).join(', ');
  // One seed has no spread to show: it reads as one seed, not as ± 0.
  const after = seeds.length > 1 ? `${measureText(measure, figure.mean)} ± ${measureText(measure, figure.std)} (${perSeed})` : `${measureText(measure, figure.mean)} (1 seed, s${seeds[0].seed})`;
  const steps = meanRange(seeds.map((seed) => seed.envSteps), (value) => Math.round(value).toLocaleString('en-US'));
  const wall = meanRange(seeds.map((seed) => seed.wallSeconds / 60), (value) => value.toFixed(1), ' min');
  const rate = meanRange(seeds.map((seed) => seed.envSteps / seed.wallSeconds), (value) => value.toFixed(0));
  return [start, after, steps, wall, rate];
}

function taskSection(task: MethodsTask, published: PublishedMethods): string[] {
  const lines = [`### ${task.task} (${MEASURE_HEADING[task.measure]})`, '', `| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const method of METHODS) {
    const result = task.methods?.find((entry) => entry.id === method.id);
    // Kept cells (a whole kept table, or one kept row of an evaluated one) win over evaluated ones.
    const keptCells = task.kept?.get(method.label);
    const ours = keptCells ? [...keptCells] : result ? ourCells(result, task.measure) : ['not run', 'not run', '—', '—', '—'];
    lines.push(`| ${method.label} | ${ours.join(' | ')} | ${published.methods[method.id].tasks[task.task] ?? '—'} |`);
  }
  if (task.figure) lines.push('', `![${task.task}: in-run evaluation ${MEASURE_HEADING[task.measure]} against env steps, mean over seeds with their min–max](${task.figure})`);
  return lines;
}

export function formatMethodsTable(tasks: readonly MethodsTask[], published: PublishedMethods, options: MethodsPageOptions): string {
  const lines = ['Fine-tuning methods side by side, one table per task (`npm run results -- compare=methods`, `npm run reproduce -- methods`).', ''];
  for (const task of tasks) lines.push(...taskSection(task, published), '');
  const kept = tasks.filter((task) => task.kept && !task.methods).map((task) => task.task);
  const keptRows = tasks.filter((task) => task.kept && task.methods).flatMap((task) => [...task.kept!.keys()].map((label) => `${task.task} ${label}`));
  const sources = METHODS.filter((method) => Object.keys(published.methods[method.id].tasks).length > 0)
    .map((method) => `${method.label}: ${published.methods[method.id].source}`);
  lines.push(
    `Ours: the success rate, or the mean return for a task without a success rule, of the deterministic policy (the Gaussian policy's mean action, the flow policy's ODE chain, the diffusion policy's DDPM mean chain) on the same ${options.episodes} fresh evaluation episodes (reset seeds from ${options.seed}) for every checkpoint: the BC checkpoint a method starts from, and each training seed's final checkpoint, as mean ± std over seeds (sample std). Env steps and wall-clock per run are its metrics.jsonl's last record; env steps/s is a run's env steps over its wall-clock; each as the mean over seeds (min–max). The figures plot each run's in-run evaluation (its own eval_episodes on fixed seeds, noisier than the table) against env steps, interpolated onto the env steps every seed reached: the line is the mean over seeds, the area their min–max.`,
    '',
    `Wall-clock: ${options.wallNote ? options.wallNote : 'as each run logged it; what else ran on the machine meanwhile was not said (wall_note= says it), so it is no measure of a method alone.'}${kept.length > 0 ? ` The ${kept.join(' and ')} table${kept.length > 1 ? 's are' : ' is'} carried over from an earlier run of this page.` : ''}${keptRows.length > 0 ? ` The ${keptRows.join(', ')} row${keptRows.length > 1 ? 's are' : ' is'} carried over from an earlier run of this page, with the cells it had there.` : ''}`,
    '',
    `Published: ${sources.join('; ')}. ${published.unsourced}.`,
  );
  return `${lines.join('\n')}\n`;
}

/** One row's cells split at the pipes. */
function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
}

/**
 * A task's section of an earlier page, for keep=: its measure, figure and our cells by method label
 * (columns it lacked read 'not run'), or undefined when the page has no table for the task.
 */
export function keptMethodSection(page: string, task: string): Pick<MethodsTask, 'measure' | 'kept' | 'figure'> | undefined {
  const lines = page.split('\n');
  const headingIndex = lines.findIndex((line) => line.startsWith(`### ${task} (`));
  if (headingIndex < 0) return undefined;
  const measure: Measure = lines[headingIndex].endsWith(`(${MEASURE_HEADING.success})`) ? 'success' : 'return';
  const end = lines.findIndex((line, index) => index > headingIndex && (line.startsWith('### ') || line.startsWith('Ours:')));
  const section = lines.slice(headingIndex + 1, end < 0 ? undefined : end);
  const table = section.filter((line) => line.trim().startsWith('|'));
  if (table.length < 2) return undefined;
  const header = cells(table[0]);
  const kept = new Map<string, string[]>();
  for (const row of table.slice(2).map(cells)) {
    kept.set(row[0], METHOD_OUR_COLUMNS.map((column) => (header.includes(column) ? row[header.indexOf(column)] ?? 'not run' : 'not run')));
  }
  const figure = section.map((line) => /^!\[[^\]]*\]\(([^)]+)\)$/.exec(line.trim())?.[1]).find(Boolean);
  return { measure, kept, ...(figure ? { figure } : {}) };
}
