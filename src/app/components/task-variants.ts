/**
 * The task picker's entries: every task the trainer knows on state observations, and the
 * point-cloud variant of each that ships a point-cloud checkpoint.
 */
import type { TaskName } from '../../core/config';
import type { ObsType, TaskEntry } from '../../protocol/trainer-api';

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
export function taskVariants(tasks: readonly TaskEntry[], current: { task: TaskName; obsType: ObsType }): TaskVariant[] {
  const variants = tasks.flatMap((entry) => entry.obsTypes.map((obsType) => taskVariant(entry.name, obsType)));
  const shown = taskVariant(current.task, current.obsType);
  return variants.some((variant) => variant.value === shown.value) ? variants : [...variants, shown];
}

/** The variant an option value names; undefined for a value no known task has. */
export function parseTaskVariant(tasks: readonly TaskEntry[], value: string): TaskVariant | undefined {
  const [task, kind] = value.split(':');
  const entry = tasks.find((candidate) => candidate.name === task);
  if (!entry) return undefined;
  const obsType: ObsType = kind === 'pointcloud' ? 'pointcloud' : 'state';
  if ((kind !== undefined && kind !== 'pointcloud') || !entry.obsTypes.includes(obsType)) return undefined;
  return taskVariant(task, obsType);
}
