/** The runs table's order and filter: a column a user sorts by, and words every shown run matches. */
import type { RunListing } from '../../protocol/trainer-api';
import { sortRunRows } from './run-rows';

export type RunSortColumn = 'name' | 'task' | 'iterations' | 'envSteps' | 'eval' | 'updated';

export interface RunSort {
  column: RunSortColumn;
  descending: boolean;
}

type SortValue = string | number | undefined;

function sortValue(run: RunListing, column: RunSortColumn, hasSuccess: (task: string) => boolean): SortValue {
  switch (column) {
    case 'name': return run.name.toLowerCase();
    case 'task': return run.task;
    case 'iterations': return run.iterations;
    case 'envSteps': return run.envSteps;
    // The eval column's own number: the success rate, or the eval return for a task without a success rule.
    case 'eval': return hasSuccess(run.task) ? run.finalSuccess : run.finalReturn;
    case 'updated': return run.updatedAt;
  }
}

/**
 * The runs by `sort`, or with none the table's default (current first, then the newest). Runs
 * without a value (never evaluated) come last either way; ties keep the default order.
 */
export function sortRunsBy(runs: readonly RunListing[], sort: RunSort | undefined, hasSuccess: (task: string) => boolean): RunListing[] {
  const base = sortRunRows(runs);
  if (!sort) return base;
  const sign = sort.descending ? -1 : 1;
  const values = new Map(base.map((run) => [run.id, sortValue(run, sort.column, hasSuccess)]));
  return base.sort((a, b) => {
    const [left, right] = [values.get(a.id), values.get(b.id)];
    const missing = Number(left === undefined || Number.isNaN(left)) - Number(right === undefined || Number.isNaN(right));
    if (missing !== 0 || left === undefined || right === undefined) return missing;
    return left < right ? -sign : left > right ? sign : 0;
  });
}

/** The next sort after a click on `column`: ascending, then descending, then the default order. */
export function nextSort(current: RunSort | undefined, column: RunSortColumn): RunSort | undefined {
  if (current?.column !== column) return { column, descending: false };
  return current.descending ? undefined : { column, descending: true };
}

/**
 * The runs matching every word of `query` (case-insensitive) in their name, task, origin, variant
 * or group (`groupOf` gives the group's name, e.g. "sweep reinflow-ablation").
 */
export function filterRuns(runs: readonly RunListing[], query: string, groupOf: (run: RunListing) => string | undefined): RunListing[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...runs];
  return runs.filter((run) => {
    const text = [run.name, run.task, run.origin, run.variant, groupOf(run)].filter(Boolean).join(' ').toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
