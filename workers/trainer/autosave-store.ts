/** The autosaved run in IndexedDB (available in workers): one record, overwritten on each save. */
import type { MetricRecord } from '../../src/core/metrics/metric-keys';
import type { RunConfig } from '../../src/core/config/run-config';
import type { SavedRunSummary } from '../../src/protocol/trainer-api';

const DB_NAME = 'flowtune-studio';
const STORE = 'autosave';
const KEY = 'latest';

export interface SavedRun {
  summary: SavedRunSummary;
  config: RunConfig;
  /** .flowtune bytes with optimizer state and progress. */
  checkpoint: Uint8Array;
  history: MetricRecord[];
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
  });
}

async function transact<T>(mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = body(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result as T);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
    });
  } finally {
    db.close();
  }
}

export function writeSavedRun(run: SavedRun): Promise<void> {
  return transact<unknown>('readwrite', (store) => store.put(run, KEY)).then(() => undefined);
}

export async function readSavedRun(): Promise<SavedRun | null> {
  return (await transact<SavedRun | undefined>('readonly', (store) => store.get(KEY))) ?? null;
}

export function clearSavedRun(): Promise<void> {
  return transact<unknown>('readwrite', (store) => store.delete(KEY)).then(() => undefined);
}
