/**
 * Reads a dropped or chosen task folder (DESIGN.md §13: the module, the scene XML, meshes) into the
 * bytes the trainer worker checks. Paths become relative to the folder; hidden files and
 * node_modules are left out, as the command line leaves them out.
 */
import { MAX_SCENE_BYTES } from '../../core/envs/task-scene';
import type { TaskFolder } from '../../protocol/trainer-api';
import { collectFiles, type FoundFile } from '../runs/read-dropped-folder';

export type TaskFolderRead = { folder: TaskFolder } | { problem: string };

/** A path's '/'-separated segments, without empty and '.' ones. */
const segmentsOf = (path: string) => path.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.');

const skipped = (segments: readonly string[]) => segments.some((segment) => segment.startsWith('.') || segment === 'node_modules');

/**
 * The folder's name and its files by path relative to it: one top folder holding everything is
 * stripped ("slide-to-target/task.js" → "task.js"); loose files keep their paths.
 */
export function taskFolderPaths<T extends { path: string }>(found: readonly T[]): { name: string; files: (T & { path: string })[] } {
  const kept = found.map((file) => ({ file, segments: segmentsOf(file.path) })).filter(({ segments }) => segments.length > 0 && !skipped(segments));
  const top = kept[0]?.segments[0];
  const oneFolder = top !== undefined && kept.every(({ segments }) => segments.length > 1 && segments[0] === top);
  return {
    name: oneFolder ? top : 'the dropped files',
    files: kept.map(({ file, segments }) => ({ ...file, path: (oneFolder ? segments.slice(1) : segments).join('/') })),
  };
}

async function readFound(found: readonly FoundFile[]): Promise<TaskFolderRead> {
  const { name, files } = taskFolderPaths(found);
  if (files.length === 0) return { problem: 'Nothing to add: drop or choose a task folder (task.js with its scene XML and meshes).' };
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  if (bytes > MAX_SCENE_BYTES) return { problem: `${name} holds ${(bytes / 2 ** 20).toFixed(0)} MiB, over the ${MAX_SCENE_BYTES / 2 ** 20} MiB a task folder may hold; keep only the module, the scene and its meshes.` };
  return { folder: { name, files: await Promise.all(files.map(async ({ path, file }) => ({ path, bytes: new Uint8Array(await file.arrayBuffer()) }))) } };
}

const notSkipped = (entry: FileSystemEntry) => !skipped([entry.name]);

/** The files of dropped entries (a folder, or loose files). Take the entries inside the drop handler. */
export async function readDroppedTaskFolder(entries: readonly FileSystemEntry[]): Promise<TaskFolderRead> {
  const found: FoundFile[] = [];
  try {
    for (const entry of entries) await collectFiles(entry, found, notSkipped);
  } catch (error) {
    return { problem: `The dropped folder could not be read (${error instanceof Error ? error.message : String(error)}); choose it with Add task… instead.` };
  }
  return readFound(found);
}

/** The files a folder picker (`webkitdirectory`) returned. */
export function readChosenTaskFolder(files: readonly File[]): Promise<TaskFolderRead> {
  return readFound(files.map((file) => ({ path: file.webkitRelativePath || file.name, size: file.size, file })));
}
