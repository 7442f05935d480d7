/**
 * A task folder the page read (DESIGN.md §13): which file is its module, and the folder's files by
 * path relative to the module for the scene and its meshes. A browser imports JavaScript only, so
 * the module is task.js, task.mjs, index.js or index.mjs; a folder without one is refused by name.
 */
import { folderPath, MAX_SCENE_BYTES } from '../../src/core/envs/task-scene';
import { TaskError } from '../../src/core/errors';
import type { TaskFolder } from '../../src/protocol/tasks-api';

/** Module names looked for, in order, at the folder's top. */
export const TASK_ENTRY_NAMES = ['task.js', 'task.mjs', 'index.js', 'index.mjs'] as const;
/** The most files one task folder may hold. */
export const MAX_TASK_FILES = 2000;

export interface TaskFolderModule {
  /** The folder and module, as messages name them ("slide-to-target/task.js"). */
  label: string;
  moduleText: string;
  /** Every other file, by path relative to the folder. */
  files: Map<string, Uint8Array>;
}

/** The module and files of a task folder; TaskError naming the folder when it holds no module or too much. */
export function taskFolderModule(folder: TaskFolder): TaskFolderModule {
  const name = folder.name || 'the task folder';
  const files = new Map<string, Uint8Array>();
  let bytes = 0;
  for (const file of folder.files) {
    const path = folderPath(file.path);
    if (!path) throw new TaskError(`${name}: the file path '${file.path}' leaves the folder`);
    bytes += file.bytes.length;
    if (files.size >= MAX_TASK_FILES || bytes > MAX_SCENE_BYTES) {
      throw new TaskError(`${name}: the folder holds more than ${MAX_TASK_FILES} files or ${MAX_SCENE_BYTES / 1024 / 1024} MiB; keep only the module, the scene and its meshes`);
    }
    files.set(path, file.bytes);
  }
  const entry = TASK_ENTRY_NAMES.find((candidate) => files.has(candidate));
  if (!entry) {
    const typescript = [...files.keys()].find((path) => /^(task|index)\.m?ts$/.test(path));
    throw new TaskError(typescript
      ? `${name}/${typescript}: the studio imports JavaScript only; compile it to ${typescript.replace(/ts$/, 'js')} beside the scene`
      : `${name}: the folder holds no task module (${TASK_ENTRY_NAMES.join(', ')}) at its top`);
  }
  const moduleText = new TextDecoder().decode(files.get(entry));
  files.delete(entry);
  return { label: `${name}/${entry}`, moduleText, files };
}
