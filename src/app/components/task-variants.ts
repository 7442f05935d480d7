/**
 * The task picker's entries: every task on state observations, and the point-cloud
 * variant of each task that ships a point-cloud checkpoint
 * (public/checkpoints/<task>-pointcloud-bc.flowtune).
 */
import type { TaskName } from '../../core/config';
import { TASK_NAMES } from '../../core/envs/task-types';
import type { ObsType } from '../../protocol/trainer-api';

/** Tasks with a shipped point-cloud checkpoint. */
export const POINT_CLOUD_TASKS: readonly TaskName[] = ['pick-cube'];

export interface TaskVariant {
  task: TaskName;
  obsType: ObsType;
  /** The option's value: the plain task name for state, `<task>:pointcloud` otherwise. */
  value: string;
  label: string;
}

export function taskVariant(task: TaskName, obsType: ObsType): TaskVariant {
  return obsType === 'pointcloud'
    ? { task, obsType, value: `${task}:pointcloud`, label: `${task} · point cloud` }
    : { task, obsType, value: task, label: task };
}

/** The picker's entries; the current variant is always among them, so the picker shows what the config says. */
export function taskVariants(current: { task: TaskName; obsType: ObsType }): TaskVariant[] {
  const variants = TASK_NAMES.flatMap((task) => [
    taskVariant(task, 'state'),
    ...(POINT_CLOUD_TASKS.includes(task) ? [taskVariant(task, 'pointcloud')] : []),
  ]);
  const shown = taskVariant(current.task, current.obsType);
  return variants.some((variant) => variant.value === shown.value) ? variants : [...variants, shown];
}

/** The variant an option value names; undefined for a value no variant has. */
export function parseTaskVariant(value: string): TaskVariant | undefined {
  const [task, kind] = value.split(':');
  if (!(TASK_NAMES as readonly string[]).includes(task)) return undefined;
  if (kind !== undefined && kind !== 'pointcloud') return undefined;
  return taskVariant(task as TaskName, kind === 'pointcloud' ? 'pointcloud' : 'state');
}
