/**
 * StudioStores in memory, for Node tests and any host without IndexedDB: one Map per store, values
 * cloned on the way in and out as IndexedDB does. A transaction may touch only the stores it names,
 * as in IndexedDB. Writes land at once: a failed transaction is not rolled back.
 */
import type { KeyValueStore, StudioStore, StudioStores } from './studio-stores';

export class MemoryStudioStores implements StudioStores {
  private readonly maps = new Map<StudioStore, Map<string, unknown>>();

  /** A store's contents, for tests to read or seed directly. */
  map(name: StudioStore): Map<string, unknown> {
    let map = this.maps.get(name);
    if (!map) this.maps.set(name, (map = new Map()));
    return map;
  }

  clear(): void {
    this.maps.clear();
  }

  async transact<T>(names: readonly StudioStore[], _mode: 'readonly' | 'readwrite', body: (store: (name: StudioStore) => KeyValueStore) => Promise<T> | T): Promise<T> {
    return body((name) => {
      if (!names.includes(name)) throw new Error(`store ${name} is not part of this transaction (${names.join(', ')})`);
      return this.store(this.map(name));
    });
  }

  private store(map: Map<string, unknown>): KeyValueStore {
    return {
      get: async <T>(key: string) => structuredClone(map.get(key)) as T | undefined,
      getAll: async <T>() => [...map.values()].map((value) => structuredClone(value)) as T[],
      put: async (key, value) => void map.set(key, structuredClone(value)),
      delete: async (key) => void map.delete(key),
    };
  }
}
