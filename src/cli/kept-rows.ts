/**
 * `keep=` for the comparisons that take it: tasks whose own cells are carried over from the
 * existing out= table instead of evaluated, so a table can grow a row without rerunning the others
 * (their run folders need not exist).
 */
import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from './cli-args';

/**
 * The kept tasks' cells, read from the out= table by `extract` (undefined when the table has no row
 * for a task); each problem is refused in one sentence: no out= table, a task it lacks, or a task
 * both evaluated (`evaluated`) and kept.
 */
export function keptFromTable<T>(args: { keep: string; out: string }, evaluated: readonly string[], extract: (table: string, task: string) => T | undefined): Map<string, T> {
  const kept = new Map<string, T>();
  const tasks = args.keep.split(',').map((task) => task.trim()).filter(Boolean);
  if (tasks.length === 0) return kept;
  const both = tasks.find((task) => evaluated.includes(task));
  if (both) throw new UsageError('keep', `${both} is both evaluated (tasks=) and kept (keep=); name it in one of them`);
  const table = keptPage(args.out);
  for (const task of tasks) {
    const cells = extract(table, task);
    if (cells === undefined) throw new UsageError('keep', `${args.out} has no ${task} row to keep`);
    kept.set(task, cells);
  }
  return kept;
}

/** The out= table that keep= carries cells over from, refused in one sentence when there is none. */
export function keptPage(out: string): string {
  if (!out || !existsSync(out)) throw new UsageError('keep', `keep= carries rows over from the out= table, and ${out || 'no out='} is not there`);
  return readFileSync(out, 'utf8');
}
