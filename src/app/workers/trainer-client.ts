import * as Comlink from 'comlink';
import type { TrainerEvent, TrainerWorkerApi } from '../../protocol/trainer-api';
import { useRunStore } from '../store/run-slice';

let client: Comlink.Remote<TrainerWorkerApi> | undefined;

/** One long-lived comlink proxy per worker (DESIGN.md §7): a collected temporary proxy can hang a call. */
export function trainerClient(): Comlink.Remote<TrainerWorkerApi> {
  if (!client) {
    const worker = new Worker(new URL('../../../workers/trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer' });
    client = Comlink.wrap<TrainerWorkerApi>(worker);
  }
  return client;
}

/** Routes one worker event into the store. */
export function applyTrainerEvent(event: TrainerEvent): void {
  const store = useRunStore.getState();
  switch (event.type) {
    case 'status':
      store.setStatus(event.status);
      if (event.status.phase !== 'error' && store.runError && event.status.phase === 'running') store.setRunError(undefined);
      break;
    case 'metrics':
      store.appendRecord(event.record);
      break;
    case 'history':
      store.setRecords(event.records);
      break;
    case 'config':
      store.setConfig(event.config);
      break;
    case 'model':
      store.setModel(event.model);
      break;
    case 'error':
      store.setRunError(`${event.name}: ${event.message}`);
      break;
  }
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
