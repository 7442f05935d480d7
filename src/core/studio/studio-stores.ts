/**
 * The studio's kept state as named key-value stores (DESIGN.md §16 "Thin workers"): the services in
 * this folder read and write through this port, so they run in Node tests against memory and in
 * the trainer worker against IndexedDB, which a worker adapter plugs in.
 */

/** The stores the studio keeps; one IndexedDB object store each in the browser. */
export type StudioStore = 'autosave' | 'run-saves' | 'run-listings' | 'run-data' | 'sweeps' | 'queue' | 'tasks';
export const STUDIO_STORES: readonly StudioStore[] = ['autosave', 'run-saves', 'run-listings', 'run-data', 'sweeps', 'queue', 'tasks'];

/** One store within a transaction. Values go in and come out as copies (structured clones). */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  getAll<T>(): Promise<T[]>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export type StoreAccess = (name: StudioStore) => KeyValueStore;

export interface StudioStores {
  /** Runs `body` in one transaction over `stores`; resolves with its result once the transaction commits. */
  transact<T>(stores: readonly StudioStore[], mode: 'readonly' | 'readwrite', body: (store: StoreAccess) => Promise<T> | T): Promise<T>;
}
