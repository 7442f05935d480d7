/**
 * `task=` on the command line (DESIGN.md §13): a built-in's name, or a task of the user's own as a
 * folder (`task=./tasks/my-reacher/`, holding `task.ts|js|mjs` or `index.*`, the scene and its
 * meshes) or a module file (`task=./my-task.js`). A user's task is imported, checked against the
 * contract, its scene compiled and a seeded reset and ten random steps run, before anything else
 * happens; a bad one exits 2 with one sentence naming the file and field.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Mujoco } from '../core/envs/mujoco-types';
import { registerCheckedTask } from '../core/envs/task-check';
import { loadTaskModule, type TaskDefinition } from '../core/envs/task-definition';
import { getTask, hasTask } from '../core/envs/task-registry';
import { MAX_SCENE_BYTES } from '../core/envs/task-scene';
import { TaskError } from '../core/errors';
import { registerBuiltInTasks } from '../tasks';
import { UsageError } from './cli-args';
import { loadMujocoNode } from './mujoco-node';

/** Module names a task folder may hold its task in, in the order they are looked for. */
const ENTRY_NAMES = ['task.ts', 'task.mts', 'task.js', 'task.mjs', 'index.ts', 'index.mts', 'index.js', 'index.mjs'];
const MODULE_FILE = /\.(m?[jt]s)$/i;
const MAX_FILES = 2000;

/** True when a task= value names a file or folder rather than a registered task. */
export function isTaskPath(value: string): boolean {
  return value.startsWith('.') || value.startsWith('/') || value.includes(path.sep) || value.includes('/') || MODULE_FILE.test(value);
}

/** Every file under `dir` by path relative to it ('/' separators), within the caps; node_modules is left out. */
function folderFiles(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  let bytes = 0;
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) {
        const data = new Uint8Array(readFileSync(path.join(dir, child)));
        bytes += data.length;
        if (files.size >= MAX_FILES || bytes > MAX_SCENE_BYTES) throw new TaskError(`${dir}: the task folder holds more than ${MAX_FILES} files or ${MAX_SCENE_BYTES / 1024 / 1024} MiB`);
        files.set(child, data);
      }
    }
  };
  walk('');
  return files;
}

/** The module and folder of a task path; a UsageError when there is none. */
function locateTask(value: string): { entry: string; folder: string } {
  const resolved = path.resolve(value);
  if (!existsSync(resolved)) throw new UsageError('task', `task=${value}: no such file or folder (a built-in task is named without a path)`);
  if (statSync(resolved).isDirectory()) {
    const entry = ENTRY_NAMES.map((name) => path.join(resolved, name)).find((file) => existsSync(file));
    if (!entry) throw new UsageError('task', `task=${value}: the folder holds no task module (${ENTRY_NAMES.slice(0, 4).join(', ')}, ...)`);
    return { entry, folder: resolved };
  }
  if (!MODULE_FILE.test(resolved)) throw new UsageError('task', `task=${value}: a task is a .ts, .js or .mjs module, or a folder holding one`);
  return { entry: resolved, folder: path.dirname(resolved) };
}

/** Loads a user's task from a file or folder, registers it and checks it runs; returns its definition. */
export async function loadTaskPath(value: string, mj: Mujoco): Promise<TaskDefinition> {
  const { entry, folder } = locateTask(value);
  const label = path.relative(process.cwd(), entry) || entry;
  const files = folderFiles(folder);
  const ref = { url: pathToFileURL(entry).href, label, files, moduleText: readFileSync(entry, 'utf8') };
  let task: TaskDefinition;
  try {
    task = await loadTaskModule(ref, (url) => import(url), mj);
  } catch (error) {
    throw error instanceof TaskError ? new UsageError('task', error.message) : error;
  }
  if (hasTask(task.name) && !getTask(task.name).module) throw new UsageError('task', `${label}: its name '${task.name}' is a built-in task's; give it another name`);
  try {
    registerCheckedTask(mj, task);
  } catch (error) {
    throw error instanceof TaskError ? new UsageError('task', error.message) : error;
  }
  return task;
}

/**
 * Registers the built-in tasks and resolves a task= value to a registered task's name: a path is
 * loaded as the user's task; a name must be a known task.
 */
export async function resolveTask(value: string): Promise<string> {
  registerBuiltInTasks();
  if (isTaskPath(value)) return (await loadTaskPath(value, await loadMujocoNode())).name;
  getTask(value);
  return value;
}

/** The command line with its task= argument resolved (a path becomes the loaded task's name). */
export async function resolveTaskArgument(argv: readonly string[]): Promise<string[]> {
  registerBuiltInTasks();
  const resolved: string[] = [];
  for (const arg of argv) {
    const match = /^(--)?task=(.*)$/.exec(arg);
    resolved.push(match && match[2] !== '' ? `task=${await resolveTask(match[2])}` : arg);
  }
  return resolved;
}
