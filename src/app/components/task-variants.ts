/**
 * The task picker's entries: every task the trainer knows on state observations, the point-cloud
 * variant of each that ships a point-cloud checkpoint, and the depth point-cloud and camera-image
 * (rgb) variants of each whose scene names a camera.
 */
import type { TaskName } from '../../core/config';
import { OBS_TYPE_ORDER, obsTypeWords } from '../../core/studio/obs-type-words';
import type { ObsType, TaskEntry } from '../../protocol/trainer-api';

export interface TaskVariant {
  task: TaskName;
  obsType: ObsType;
  /** The option's value: the plain task name for state, `<task>:<obs_type>` otherwise. */
  value: string;
  label: string;
}

export function taskVariant(task: TaskName, obsType: ObsType): TaskVariant {
  return obsType === 'state'
    ? { task, obsType, value: task, label: task }
    : { task, obsType, value: `${task}:${obsType}`, label: `${task} · ${obsTypeWords(obsType)}` };
}

/** The picker's entries; the current variant is always among them, so the picker shows what the config says. */
export function taskVariants(tasks: readonly TaskEntry[], current: { task: TaskName; obsType: ObsType }): TaskVariant[] {
  const variants = tasks.flatMap((entry) => entry.obsTypes.map((obsType) => taskVariant(entry.name, obsType)));
  const shown = taskVariant(current.task, current.obsType);
  return variants.some((variant) => variant.value === shown.value) ? variants : [...variants, shown];
}

/** The variant an option value names; undefined for a value no known task has. */
export function parseTaskVariant(tasks: readonly TaskEntry[], value: string): TaskVariant | undefined {
  const [task, kind = 'state'] = value.split(':');
  const entry = tasks.find((candidate) => candidate.name === task);
  if (!entry || kind === 'state') return entry && value === task ? taskVariant(task, 'state') : undefined;
  const obsType = OBS_TYPE_ORDER.find((candidate) => candidate === kind);
  if (obsType === undefined || !entry.obsTypes.includes(obsType)) return undefined;
  return taskVariant(task, obsType);
}
