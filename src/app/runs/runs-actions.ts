/**
 * The Runs tab's calls to the trainer worker. Their outcomes land in the compare store; the run
 * list itself changes only through the worker's 'runs' event, so a deleted row goes when the
 * worker says so.
 */
import type { DroppedFile, QueueRequest } from '../../protocol/trainer-api';
import { useCompareStore } from '../store/compare-slice';
import { errorText, trainerClient } from '../workers/trainer-client';
import { importSummary } from './import-files';
import { staleDetailIds } from './selected-runs';

function report(error: unknown): void {
  useCompareStore.getState().setNotice({ kind: 'error', text: errorText(error) });
}

/** The kept runs and imported sweeps, at start-up. */
export async function loadRunsAndSweeps(): Promise<void> {
  const client = trainerClient();
  const [runs, sweeps] = await Promise.all([client.listRuns(), client.listSweeps()]);
  useCompareStore.getState().setRuns(runs);
  useCompareStore.getState().setSweeps(sweeps);
}

/** Sweeps have no event of their own: the list is read again after a change. */
async function refreshSweeps(): Promise<void> {
  useCompareStore.getState().setSweeps(await trainerClient().listSweeps());
}

/** Hands dropped folder files to the worker; an ImportError's sentence becomes the notice and nothing else changes. */
export async function importFiles(files: DroppedFile[]): Promise<void> {
  try {
    const result = await trainerClient().importFolder(files);
    useCompareStore.getState().setNotice({ kind: 'ok', text: importSummary(result) });
    await refreshSweeps();
  } catch (error) {
    report(error);
  }
}

/** Asks the worker to forget a run; false (with the notice set) when it refused. */
export async function deleteRun(id: string): Promise<boolean> {
  try {
    await trainerClient().deleteRun(id);
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

/** Restores a kept run from its weights and trains it on; a refusal (a run exists, no weights) becomes the notice. */
export async function resumeRun(id: string): Promise<void> {
  try {
    await trainerClient().resumeRun(id);
    useCompareStore.getState().setNotice(undefined);
  } catch (error) {
    report(error);
  }
}

export async function deleteSweep(id: string): Promise<void> {
  try {
    await trainerClient().deleteSweep(id);
    await refreshSweeps();
  } catch (error) {
    report(error);
  }
}

/**
 * Starts a queue; returns its refusal as a sentence (a run is active, a bad preset), or undefined.
 * The queue's status arrives as events only: events come on another channel than the reply, so a
 * reply taken as the status could overwrite a newer one (the first item already running).
 */
export async function startQueue(request: QueueRequest): Promise<string | undefined> {
  try {
    await trainerClient().startQueue(request);
    return undefined;
  } catch (error) {
    return errorText(error);
  }
}

export async function cancelQueue(): Promise<string | undefined> {
  try {
    await trainerClient().cancelQueue();
    useCompareStore.getState().setQueue(await trainerClient().queueStatus());
    return undefined;
  } catch (error) {
    return errorText(error);
  }
}

/** Details asked for, as "id@updatedAt": each version of a run is fetched once, even if the answer is slow or fails. */
const requested = new Set<string>();

/** Fetches the details of selected runs that are missing or out of date. */
export async function fetchStaleDetails(): Promise<void> {
  const { selected, runs, details } = useCompareStore.getState();
  const versions = new Map(runs.map((run) => [run.id, `${run.id}@${run.updatedAt}`]));
  const ids = staleDetailIds(selected, runs, details).filter((id) => !requested.has(versions.get(id) ?? id));
  if (ids.length === 0) return;
  for (const id of ids) requested.add(versions.get(id) ?? id);
  // One call per run, so a run deleted meanwhile (an ImportError naming it) does not hold up the others.
  const answers = await Promise.allSettled(ids.map((id) => trainerClient().runDetails([id])));
  useCompareStore.getState().addDetails(answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : [])));
  const failed = answers.find((answer) => answer.status === 'rejected');
  if (failed) report(failed.reason);
}
