/**
 * The tasks this process knows (DESIGN.md §13): hosts register the built-ins and any task a user
 * loads; core looks them up by name and imports no task. A name maps to one task: registering
 * another version under a taken name is refused unless the host replaces it on purpose.
 */
import { ConfigError, TaskError } from '../errors';
import type { TaskDefinition } from './task-definition';

const tasks = new Map<string, TaskDefinition>();
let defaultTask: string | undefined;

/** Registers a task; the same task again is a no-op, another task under its name a TaskError unless `replace`. */
export function registerTask(task: TaskDefinition, options: { replace?: boolean } = {}): void {
  const known = tasks.get(task.name);
  if (known && known.hash !== task.hash && !options.replace) {
    throw new TaskError(`a task named '${task.name}' is already loaded (${known.origin}); ${task.origin} is another version of it: rename one`);
  }
  tasks.set(task.name, task);
}

/** Forgets a task the host loaded: a user's task it removed, or one that failed its checks after registering. */
export function unregisterTask(name: string): void {
  tasks.delete(name);
}

/** The task the studio and commands start with (the hosts' choice, among the built-ins). */
export function setDefaultTask(name: string): void {
  defaultTask = name;
}

export function hasDefaultTask(): boolean {
  return defaultTask !== undefined;
}

export function defaultTaskName(): string {
  if (defaultTask === undefined) throw new TaskError('no task is registered yet: the host registers the built-in tasks first');
  return defaultTask;
}

export function hasTask(name: string): boolean {
  return tasks.has(name);
}

/** Every registered task's name, in registration order (built-ins first). */
export function taskNames(): string[] {
  return [...tasks.keys()];
}

export function getTask(name: string): TaskDefinition {
  const task = tasks.get(name);
  if (!task) {
    throw new ConfigError('task', `task '${name}' is unknown; known tasks: ${taskNames().join(', ') || '(none registered)'}; a task of your own is task=./path/to/task/ (DESIGN.md §13)`);
  }
  return task;
}
