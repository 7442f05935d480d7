/**
 * A row of the results tables is a task, or one of its observation variants: `<task>-pointcloud` (a
 * point cloud) or `<task>-rgb` (the task's camera). The row's checkpoints decide the observation;
 * the env is the task's.
 */
import { hasTask, taskNames } from '../core/envs/task-registry';
import { UsageError } from './cli-args';

/** The observation variants a row name may end with, each with the env.obs_type it stands for. */
export const ROW_VARIANTS = { '-pointcloud': 'pointcloud', '-rgb': 'rgb' } as const;

/** The observation variant suffix of a row, or '' for the task's own (state) row. */
export function rowVariant(row: string): keyof typeof ROW_VARIANTS | '' {
  return (Object.keys(ROW_VARIANTS) as (keyof typeof ROW_VARIANTS)[]).find((suffix) => row.endsWith(suffix)) ?? '';
}

/** The task a row runs in (a task whose own name ends like a variant stays itself), refused in one sentence when it names none. */
export function taskOfRow(row: string): string {
  if (hasTask(row)) return row;
  const task = row.slice(0, row.length - rowVariant(row).length);
  if (!hasTask(task)) throw new UsageError('tasks', `'${row}' is not a task, <task>-pointcloud or <task>-rgb; tasks: ${taskNames().join(', ')}`);
  return task;
}
