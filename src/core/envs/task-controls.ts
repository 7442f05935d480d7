/** A run's action space from its config: the task's control that env.control_mode names ('default': the task's first). */
import { taskControl, type ResolvedControl } from './task-definition';
import { getTask } from './task-registry';

export function configControl(config: { task: string; env: { control_mode: string } }): ResolvedControl {
  const mode = config.env.control_mode;
  return taskControl(getTask(config.task), mode === 'default' ? undefined : mode);
}

/** Action values per env step for the run. */
export function configActionDim(config: { task: string; env: { control_mode: string } }): number {
  return configControl(config).dim;
}

/** The task's control that takes `dim`-D actions (the default one first), or undefined. */
export function controlForActionDim(taskName: string, dim: number): string | undefined {
  const task = getTask(taskName);
  if (task.controls.get(task.defaultControl)?.dim === dim) return task.defaultControl;
  return [...task.controls.values()].find((control) => control.dim === dim)?.name;
}
