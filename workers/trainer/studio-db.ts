/**
 * The studio's IndexedDB database (available in workers): each run's newest save and the one a
 * reload offers, the kept runs (a listing store read for the Runs table and a data store with config
 * and metrics read on demand), imported sweeps, the queue, and the task folders the user added.
 * Version 2 added the run list, sweeps and queue; version 3 the per-run saves; version 4 the added
 * tasks. An upgrade keeps what earlier versions stored.
 */
import { STUDIO_STORES as STORES, type StudioStore } from '../../src/core/studio/studio-stores';

export type { StudioStore };

const DB_NAME = 'flowtune-studio';
const DB_VERSION = 4;

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      for (const name of STORES) if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
    request.onblocked = () => reject(new Error('IndexedDB is held open by another tab of the studio: close it and reload'));
  });
}

const done = (request: IDBRequest) => new Promise<unknown>((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
});

/** Runs `body` in one transaction over `stores` and resolves with its result once the transaction commits. */
export async function inStudioDb<T>(stores: readonly StudioStore[], mode: IDBTransactionMode, body: (store: (name: StudioStore) => IDBObjectStore) => Promise<T> | T): Promise<T> {
  const db = await openDb();
  try {
    const transaction = db.transaction(stores as StudioStore[], mode);
    const committed = new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction was aborted (is the disk quota full?)'));
    });
    const result = await body((name) => transaction.objectStore(name));
    await committed;
    return result;
  } finally {
    db.close();
  }
}

export const dbGet = <T>(store: IDBObjectStore, key: string) => done(store.get(key)) as Promise<T | undefined>;
export const dbGetAll = <T>(store: IDBObjectStore) => done(store.getAll()) as Promise<T[]>;
export const dbPut = (store: IDBObjectStore, key: string, value: unknown) => done(store.put(value, key)).then(() => undefined);
export const dbDelete = (store: IDBObjectStore, key: string) => done(store.delete(key)).then(() => undefined);
