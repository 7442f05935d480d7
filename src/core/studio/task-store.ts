/** The task folders the user added, kept in IndexedDB by task name so they load again after a reload. */
import type { TaskFolder } from '../../src/protocol/tasks-api';
import { dbDelete, dbGetAll, dbPut, inStudioDb } from './studio-db';

export interface KeptTask {
  name: string;
  /** The folder as the page sent it: the module, the scene and its meshes. */
  folder: TaskFolder;
  /** The task's hash (scene, files, module text and shape) when it was added. */
  hash: string;
  addedAt: number;
}

/** Every kept task, oldest first (the picker lists them in the order they were added). */
export async function keptTasks(): Promise<KeptTask[]> {
  const tasks = await inStudioDb(['tasks'], 'readonly', (store) => dbGetAll<KeptTask>(store('tasks')));
  return tasks.sort((a, b) => a.addedAt - b.addedAt);
}

export function keepTask(task: KeptTask): Promise<void> {
  return inStudioDb(['tasks'], 'readwrite', (store) => dbPut(store('tasks'), task.name, task));
}

export function forgetTask(name: string): Promise<void> {
  return inStudioDb(['tasks'], 'readwrite', (store) => dbDelete(store('tasks'), name));
}
