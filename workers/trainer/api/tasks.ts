/** TasksApi: the task catalog, and the task folders the user adds or removes. */
import { defaultTaskName } from '../../../src/core/envs/task-registry';
import type { TasksApi } from '../../../src/protocol/trainer-api';
import { addedTaskEntry, taskEntries } from '../task-catalog';
import type { TrainerParts } from '../trainer-parts';

export function tasksApi(parts: TrainerParts): TasksApi {
  const inUse = (name: string) => parts.taskInUse(name);
  const announce = async () => parts.session.emit({ type: 'tasks', tasks: await taskEntries() });
  return {
    async listTasks() {
      await parts.tasksReady();
      return taskEntries();
    },
    async addTask(folder) {
      const task = await parts.userTasks.add(folder, inUse);
      await announce();
      return addedTaskEntry(task);
    },
    async removeTask(name) {
      await parts.userTasks.remove(name, inUse);
      // The next run cannot name a task that is gone: it goes back to the default task.
      if (parts.session.config.task === name) await parts.session.models.selectTask(defaultTaskName(), 'state');
      await announce();
    },
  };
}
