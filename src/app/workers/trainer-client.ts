import * as Comlink from 'comlink';
import type { MetricRecord } from '../../core/metrics/metric-keys';
import type { RunStatus, TrainerEvent, TrainerWorkerApi } from '../../protocol/trainer-api';
import { useCompareStore } from '../store/compare-slice';
import { useRunStore } from '../store/run-slice';
import { useRuntimeStore } from '../store/runtime-slice';
import { useEpisodeStore } from '../store/episode-slice';
import { useRecipeStore } from '../store/recipe-slice';
import { setKnownTasks } from '../tasks/known-tasks';

let client: Comlink.Remote<TrainerWorkerApi> | undefined;

/** One long-lived comlink proxy per worker (DESIGN.md §7): a collected temporary proxy can hang a call. */
export function trainerClient(): Comlink.Remote<TrainerWorkerApi> {
  if (!client) {
    const worker = new Worker(new URL('../../../workers/trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer' });
    client = Comlink.wrap<TrainerWorkerApi>(worker);
  }
  return client;
}

/** Renders at most this often while training, so the main thread stays free between frames. */
const FLUSH_MS = 1000;
let pendingRecords: MetricRecord[] = [];
let pendingStatus: RunStatus | undefined;
let flushTimer: ReturnType<typeof setTimeout> | undefined;
let lastFlush = 0;
/** Set from a Reset until the worker's empty history arrives: records still in flight belong to the ended run. */
let discardingRecords = false;

function flush(): void {
  flushTimer = undefined;
  lastFlush = performance.now();
  const store = useRunStore.getState();
  if (pendingRecords.length > 0) store.appendRecords(pendingRecords);
  if (pendingStatus) store.setStatus(pendingStatus);
  pendingRecords = [];
  pendingStatus = undefined;
}

/** Coalesces streamed records and status; phase changes render at once. */
function schedule(urgent: boolean): void {
  if (urgent) {
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    flush();
    return;
  }
  flushTimer ??= setTimeout(flush, Math.max(0, FLUSH_MS - (performance.now() - lastFlush)));
}

/** Routes one worker event into the store. */
export function applyTrainerEvent(event: TrainerEvent): void {
  const store = useRunStore.getState();
  switch (event.type) {
    case 'status': {
      const phaseChanged = event.status.phase !== (pendingStatus ?? store.status)?.phase;
      pendingStatus = event.status;
      if (event.status.phase === 'running' && phaseChanged && store.runError) store.setRunError(undefined);
      schedule(phaseChanged || event.status.phase !== 'running');
      break;
    }
    case 'metrics':
      if (discardingRecords) break;
      pendingRecords.push(event.record);
      schedule(false);
      break;
    case 'history':
      discardingRecords = false;
      pendingRecords = [];
      store.setRecords(event.records);
      useEpisodeStore.getState().clearEpisodes();
      break;
    case 'episodes':
      useEpisodeStore.getState().addEpisodes(event.episodes, event.dropped);
      break;
    case 'tasks':
      setKnownTasks(event.tasks);
      break;
    case 'config':
      store.setConfig(event.config);
      break;
    case 'model':
      store.setModel(event.model, event.next);
      break;
    case 'saved-run':
      store.setSavedRun(event.saved);
      break;
    case 'notice':
      store.setRunNotice(event.message);
      break;
    case 'runs':
      useCompareStore.getState().setRuns(event.runs);
      break;
    case 'queue':
      useCompareStore.getState().setQueue(event.queue);
      break;
    case 'recipe':
      useRecipeStore.getState().setStatus(event.status);
      break;
    case 'recipe-point':
      useRecipeStore.getState().appendPoint(event.point);
      break;
    case 'recipe-points':
      useRecipeStore.getState().replacePoints(event.points);
      break;
    case 'backend':
      useRuntimeStore.getState().setBackend(event.report);
      break;
    case 'error':
      store.setRunError(`${event.name}: ${event.message}`);
      break;
  }
}

/**
 * Clears the charts and gallery the moment Reset is confirmed: the worker's own empty history
 * arrives only once the run has parked and saved (a second or two). `resetDone` false (Reset
 * failed) takes the records again.
 */
export function clearRunView(): (resetDone: boolean) => void {
  discardingRecords = true;
  pendingRecords = [];
  useRunStore.getState().setRecords([]);
  useEpisodeStore.getState().clearEpisodes();
  return (resetDone) => {
    if (!resetDone) discardingRecords = false;
  };
}

let subscribed = false;

/** Subscribes the page to the worker's events once; the worker releases a replaced proxy. */
export async function subscribeTrainerEvents(): Promise<void> {
  if (subscribed) return;
  subscribed = true;
  await trainerClient().subscribe(Comlink.proxy(applyTrainerEvent));
}

/** The message of an error thrown in the worker (comlink keeps name and message). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
