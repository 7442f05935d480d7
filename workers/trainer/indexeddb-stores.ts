/** core/studio's kept-state services bound to this worker's IndexedDB (studio-db.ts). */
import { studioQueueStore } from '../../src/core/studio/queue-store';
import { RunArchive } from '../../src/core/studio/run-archive';
import type { QueuePorts } from '../../src/core/studio/run-queue';
import { RunAutosaves } from '../../src/core/studio/run-autosave';
import { SavedRuns } from '../../src/core/studio/saved-runs';
import type { KeyValueStore, StudioStores } from '../../src/core/studio/studio-stores';
import { TaskStore } from '../../src/core/studio/task-store';
import { dbDelete, dbGet, dbGetAll, dbPut, inStudioDb } from './studio-db';

function keyValue(store: IDBObjectStore): KeyValueStore {
  return {
    get: (key) => dbGet(store, key),
    getAll: () => dbGetAll(store),
    put: (key, value) => dbPut(store, key, value),
    delete: (key) => dbDelete(store, key),
  };
}

export const studioStores: StudioStores = {
  transact: (stores, mode, body) => inStudioDb(stores, mode, (store) => body((name) => keyValue(store(name)))),
};

export const runArchive = new RunArchive(studioStores);
export const savedRuns = new SavedRuns(studioStores);
export const autosaves = new RunAutosaves(savedRuns);
export const queueStore = studioQueueStore(studioStores);
export const taskStore = new TaskStore(studioStores);

/** The queue kept here; the save a reload offers names the run the queue may resume. */
export const queuePorts: QueuePorts = {
  store: queueStore,
  savedRunId: async () => (await savedRuns.offered())?.runId,
};
