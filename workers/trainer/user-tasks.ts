/**
 * The tasks the user added to the studio (DESIGN.md §13): a dropped folder is imported from a
 * blob: URL made of its module text, checked completely (contract, scene, a seeded reset and ten
 * random steps) and only then registered and kept in IndexedDB. Env workers import the same blob:
 * URL, which the task's module reference carries in each env config. Kept tasks load again before
 * anything reads the registry after a reload.
 */
import { registerCheckedTask } from '../../src/core/envs/task-check';
import { loadTaskModule, type TaskDefinition } from '../../src/core/envs/task-definition';
import { getTask, hasTask, registerTask, unregisterTask } from '../../src/core/envs/task-registry';
import type { Mujoco } from '../../src/core/envs/mujoco-types';
import { TaskError } from '../../src/core/errors';
import type { TaskFolder } from '../../src/protocol/tasks-api';
import { taskFolderModule } from './task-folder';
import { taskStore } from './indexeddb-stores';
import { trainerMujoco } from './trainer-mujoco';

const importModule = (url: string): Promise<unknown> => import(/* @vite-ignore */ url);

/** Imports and compiles a folder's task (its scene compiles against MuJoCo); the blob: URL is revoked if it fails. */
async function compileFolder(folder: TaskFolder, mj: Mujoco): Promise<TaskDefinition> {
  const { label, moduleText, files } = taskFolderModule(folder);
  const url = URL.createObjectURL(new Blob([moduleText], { type: 'text/javascript' }));
  try {
    return await loadTaskModule({ url, label, files, moduleText }, importModule, mj);
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
}

/** registerCheckedTask, revoking the task's blob: URL when it fails. */
function registerChecked(task: TaskDefinition, mj: Mujoco): void {
  try {
    registerCheckedTask(mj, task);
  } catch (error) {
    if (task.module) URL.revokeObjectURL(task.module.url);
    throw error;
  }
}

export class UserTasks {
  private loading?: Promise<void>;

  /** `report` tells the page about a kept task that no longer loads (it is forgotten). */
  constructor(private readonly report: (message: string) => void) {}

  /** Resolves once the kept tasks are registered; the first call loads them. */
  ready(): Promise<void> {
    this.loading ??= this.loadKept();
    return this.loading;
  }

  private async loadKept(): Promise<void> {
    const kept = await taskStore.all().catch((error: unknown) => {
      this.report(`the added tasks could not be read from IndexedDB: ${(error as Error).message}`);
      return [];
    });
    if (kept.length === 0) return;
    const mj = await trainerMujoco();
    for (const { name, folder } of kept) {
      try {
        const task = await compileFolder(folder, mj);
        if (hasTask(task.name) && !getTask(task.name).module) throw new TaskError(`its name '${task.name}' is now a built-in task's`);
        registerTask(task, { replace: true });
      } catch (error) {
        this.report(`the added task '${name}' no longer loads and was removed (${(error as Error).message}); add its folder again`);
        await taskStore.forget(name).catch(() => undefined);
      }
    }
  }

  /**
   * Checks a folder and, when it passes, registers and keeps its task. `inUse` says why a task of
   * that name must not change now (undefined when it may). Nothing changes when it throws.
   */
  async add(folder: TaskFolder, inUse: (name: string) => string | undefined): Promise<TaskDefinition> {
    await this.ready();
    const mj = await trainerMujoco();
    const task = await compileFolder(folder, mj);
    const label = task.module?.label ?? folder.name;
    const known = hasTask(task.name) ? getTask(task.name) : undefined;
    const refuse = (reason: string) => {
      if (task.module) URL.revokeObjectURL(task.module.url);
      return new TaskError(`${label}: ${reason}`);
    };
    if (known && !known.module) throw refuse(`its name '${task.name}' is a built-in task's; give it another name`);
    if (known?.hash === task.hash) {
      if (task.module) URL.revokeObjectURL(task.module.url);
      return known;
    }
    const busy = known ? inUse(task.name) : undefined;
    if (busy) throw refuse(`another version of '${task.name}' ${busy}`);
    registerChecked(task, mj);
    try {
      const addedAt = known ? (await taskStore.all()).find((kept) => kept.name === task.name)?.addedAt ?? Date.now() : Date.now();
      await taskStore.keep({ name: task.name, folder, hash: task.hash, addedAt });
    } catch (error) {
      if (known) registerTask(known, { replace: true });
      else unregisterTask(task.name);
      throw refuse(`the task could not be kept in IndexedDB (${(error as Error).message})`);
    }
    return task;
  }

  /** Forgets an added task; a built-in, or one `inUse` names a reason for, is refused. */
  async remove(name: string, inUse: (name: string) => string | undefined): Promise<void> {
    await this.ready();
    const task = getTask(name);
    if (!task.module) throw new TaskError(`'${name}' is a built-in task; only added tasks can be removed`);
    const busy = inUse(name);
    if (busy) throw new TaskError(`'${name}' ${busy}`);
    await taskStore.forget(name);
    unregisterTask(name);
  }
}
