import { describe, expect, it } from 'vitest';
import { taskFolderPaths } from './read-task-folder';

const paths = (found: { path: string }[]) => found.map((file) => file.path);

describe('reading a task folder', () => {
  it('makes paths relative to one chosen or dropped folder, and names the task folder by it', () => {
    const read = taskFolderPaths([{ path: 'slide-to-target/task.js' }, { path: '/slide-to-target/scene.xml' }, { path: 'slide-to-target/meshes/puck.stl' }]);
    expect(read.name).toBe('slide-to-target');
    expect(paths(read.files)).toEqual(['task.js', 'scene.xml', 'meshes/puck.stl']);
  });

  it('keeps loose files as they are', () => {
    const read = taskFolderPaths([{ path: 'task.js' }, { path: 'scene.xml' }]);
    expect(read.name).toBe('the dropped files');
    expect(paths(read.files)).toEqual(['task.js', 'scene.xml']);
  });

  it('leaves out hidden files and node_modules, as the command line does', () => {
    const read = taskFolderPaths([{ path: 'a/task.js' }, { path: 'a/.DS_Store' }, { path: 'a/node_modules/x/index.js' }, { path: 'a\\.git\\HEAD' }]);
    expect(paths(read.files)).toEqual(['task.js']);
  });
});
