import { describe, expect, it } from 'vitest';
import type { TaskFolder } from '../../src/protocol/tasks-api';
import { MAX_TASK_FILES, taskFolderModule } from './task-folder';

const text = (value: string) => new TextEncoder().encode(value);

function folder(paths: Record<string, string>, name = 'my-task'): TaskFolder {
  return { name, files: Object.entries(paths).map(([path, body]) => ({ path, bytes: text(body) })) };
}

describe('task folders from the page', () => {
  it('takes task.js as the module, and keeps the scene and meshes by their paths in the folder', () => {
    const read = taskFolderModule(folder({ 'task.js': 'export default {}', 'scene.xml': '<mujoco/>', 'meshes/./link.stl': 'solid' }));
    expect(read.label).toBe('my-task/task.js');
    expect(read.moduleText).toBe('export default {}');
    expect([...read.files.keys()].sort()).toEqual(['meshes/link.stl', 'scene.xml']);
  });

  it('looks for task.js, task.mjs, index.js, index.mjs in that order', () => {
    expect(taskFolderModule(folder({ 'index.js': 'a', 'task.mjs': 'b' })).label).toBe('my-task/task.mjs');
    expect(taskFolderModule(folder({ 'index.mjs': 'a', 'index.js': 'b' })).moduleText).toBe('b');
  });

  it('refuses a folder without a module, naming the folder and the names looked for', () => {
    expect(() => taskFolderModule(folder({ 'scene.xml': '<mujoco/>', 'sub/task.js': '' }))).toThrow(/^my-task: the folder holds no task module \(task\.js, task\.mjs, index\.js, index\.mjs\) at its top$/);
  });

  it('refuses a TypeScript module by its file, saying the studio imports JavaScript', () => {
    expect(() => taskFolderModule(folder({ 'task.ts': '', 'scene.xml': '' }))).toThrow(/^my-task\/task\.ts: the studio imports JavaScript only; compile it to task\.js/);
  });

  it('refuses a path that leaves the folder', () => {
    expect(() => taskFolderModule(folder({ 'task.js': '', '../secret.xml': '' }))).toThrow(/the file path '\.\.\/secret\.xml' leaves the folder/);
  });

  it('refuses more files than a task folder may hold', () => {
    const many: Record<string, string> = { 'task.js': '' };
    for (let fileIndex = 0; fileIndex < MAX_TASK_FILES; fileIndex++) many[`meshes/${fileIndex}.stl`] = '';
    expect(() => taskFolderModule(folder(many))).toThrow(new RegExp(`more than ${MAX_TASK_FILES} files`));
  });
});
