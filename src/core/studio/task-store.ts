/** The task folders the user added, kept by task name so they load again after a reload. */
import type { TaskFolder } from '../../protocol/tasks-api';
import type { StudioStores } from './studio-stores';

export interface KeptTask {
  name: string;
  /** The folder as the page sent it: the module, the scene and its meshes. */
  folder: TaskFolder;
  /** The task's hash (scene, files, module text and shape) when it was added. */
  hash: string;
  addedAt: number;
}

export class TaskStore {
  constructor(private readonly db: StudioStores) {}

  /** Every kept task, oldest first (the picker lists them in the order they were added). */
  async all(): Promise<KeptTask[]> {
    const tasks = await this.db.transact(['tasks'], 'readonly', (store) => store('tasks').getAll<KeptTask>());
    return tasks.sort((a, b) => a.addedAt - b.addedAt);
  }

  keep(task: KeptTask): Promise<void> {
    return this.db.transact(['tasks'], 'readwrite', (store) => store('tasks').put(task.name, task));
  }

  forget(name: string): Promise<void> {
    return this.db.transact(['tasks'], 'readwrite', (store) => store('tasks').delete(name));
  }
}
