/**
 * Takes the trainer's task list: registers a stand-in for each added task (so configs naming it
 * validate on the page), forgets stand-ins of removed ones, and hands the list to the picker.
 */
import { hasTask, registerTask, unregisterTask } from '../../core/envs/task-registry';
import type { TaskEntry } from '../../protocol/trainer-api';
import { useRunStore } from '../store/run-slice';
import { taskStandIn } from './task-stand-in';

/** Names of the stand-ins this page registered. */
const standIns = new Set<string>();

/** Registers the stand-ins of the added tasks among `entries` and forgets those no longer listed. */
export function registerTaskStandIns(entries: readonly TaskEntry[]): void {
  const listed = new Set(entries.map((entry) => entry.name));
  for (const name of standIns) {
    if (!listed.has(name)) {
      unregisterTask(name);
      standIns.delete(name);
    }
  }
  for (const entry of entries) {
    // A built-in is registered from its module; a stand-in never replaces it.
    if (hasTask(entry.name) && !standIns.has(entry.name)) continue;
    const standIn = taskStandIn(entry);
    if (!standIn) continue;
    registerTask(standIn, { replace: true });
    standIns.add(entry.name);
  }
}

export function setKnownTasks(entries: TaskEntry[]): void {
  registerTaskStandIns(entries);
  useRunStore.getState().setTasks(entries);
}

