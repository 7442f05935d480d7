/**
 * Adding and removing tasks from the page: the trainer worker checks a folder completely before
 * anything changes; an accepted task becomes the next run's when no run or demos stage holds the
 * task, and the picker's notice says what happened in one sentence.
 */
import * as Comlink from 'comlink';
import type { ObsType, TaskEntry } from '../../protocol/trainer-api';
import { useRecipeStore } from '../store/recipe-slice';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';
import type { TaskFolderRead } from './read-task-folder';

/** Why the picker may not switch tasks now; undefined when it may. */
export function taskSwitchBlocker(phase: string, recipePhase: string | undefined): string | undefined {
  if (phase !== 'idle') return 'Reset the run to change the task';
  if (recipePhase === 'running' || recipePhase === 'paused') return 'A New-from-demos stage is using this task: let it finish or discard it';
  return undefined;
}

function switchBlocked(): string | undefined {
  return taskSwitchBlocker(useRunStore.getState().status?.phase ?? 'idle', useRecipeStore.getState().status?.phase);
}

export async function selectTask(task: string, obsType: ObsType): Promise<void> {
  try {
    await trainerClient().selectTask(task, obsType);
    useRunStore.getState().setTaskNotice(undefined);
  } catch (error) {
    useRunStore.getState().setRunError(errorText(error));
  }
}

/** Sends a read folder to the trainer to check and keep; the current run, model and metrics stay as they are if it is refused. */
export async function addTaskFolder(reading: Promise<TaskFolderRead>): Promise<void> {
  const { setTaskNotice } = useRunStore.getState();
  const read = await reading;
  if ('problem' in read) {
    setTaskNotice({ kind: 'error', text: read.problem });
    return;
  }
  const client = trainerClient();
  let entry: TaskEntry;
  try {
    entry = await client.addTask(Comlink.transfer(read.folder, read.folder.files.map((file) => file.bytes.buffer as ArrayBuffer)));
  } catch (error) {
    setTaskNotice({ kind: 'error', text: errorText(error) });
    return;
  }
  const blocked = switchBlocked();
  if (blocked) {
    setTaskNotice({ kind: 'ok', text: `${entry.name} is checked and added; ${blocked.charAt(0).toLowerCase()}${blocked.slice(1)} to train on it.` });
    return;
  }
  try {
    await client.selectTask(entry.name, 'state');
    setTaskNotice({ kind: 'ok', text: `${entry.name} is checked and added: Train starts it from a freshly initialized policy.` });
  } catch (error) {
    setTaskNotice({ kind: 'error', text: `${entry.name} is added, but selecting it failed: ${errorText(error)}` });
  }
}

/** Forgets an added task (kept runs of it stay in the Runs list). */
export async function removeTask(name: string): Promise<void> {
  const { setTaskNotice } = useRunStore.getState();
  try {
    await trainerClient().removeTask(name);
    setTaskNotice({ kind: 'ok', text: `${name} was removed from the added tasks.` });
  } catch (error) {
    setTaskNotice({ kind: 'error', text: errorText(error) });
  }
}
