import * as Comlink from 'comlink';
import type { TrainerWorkerApi } from '../../protocol/trainer-api';

let client: Comlink.Remote<TrainerWorkerApi> | undefined;

/** One long-lived comlink proxy per worker (DESIGN.md §7): a collected temporary proxy can hang a call. */
export function trainerClient(): Comlink.Remote<TrainerWorkerApi> {
  if (!client) {
    const worker = new Worker(new URL('../../../workers/trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer' });
    client = Comlink.wrap<TrainerWorkerApi>(worker);
  }
  return client;
}
