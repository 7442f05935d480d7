/** Task registry: name → definition (DESIGN.md §5). */
import { ConfigError } from '../errors';
import { TASK_NAMES, type TaskDefinition, type TaskName } from './task-types';
import { reachTask } from './tasks/reach/task';
import { liftTask } from './tasks/lift/task';
import { pickCubeTask } from './tasks/pick-cube/task';
import { stackCubeTask } from './tasks/stack-cube/task';
import { pegInsertionTask } from './tasks/peg-insertion/task';

const TASKS: Record<TaskName, TaskDefinition> = {
  reach: reachTask,
  lift: liftTask,
  'pick-cube': pickCubeTask,
  'stack-cube': stackCubeTask,
  'peg-insertion': pegInsertionTask,
};

export function getTask(name: string): TaskDefinition {
  if (!(TASK_NAMES as readonly string[]).includes(name)) {
    throw new ConfigError('task', `task '${name}' is unknown; allowed values: ${TASK_NAMES.join(', ')}`);
  }
  return TASKS[name as TaskName];
}
