/** The studio's queue in IndexedDB, so a reload finds it: its status, each run's config, and the model it starts from. */
import type { RunConfig } from '../../src/core/config/run-config';
import type { CheckpointFiles, QueueStatus } from '../../src/protocol/trainer-api';
import { dbDelete, dbGet, dbPut, inStudioDb } from './studio-db';

const KEY = 'active';

export interface StoredQueue {
  status: QueueStatus;
  /** One config per item, computed when the queue started. */
  configs: RunConfig[];
  /** The model every run starts from (none: a fresh policy). */
  files?: CheckpointFiles;
}

export function writeQueue(queue: StoredQueue): Promise<void> {
  return inStudioDb(['queue'], 'readwrite', (store) => dbPut(store('queue'), KEY, queue));
}

export async function readQueue(): Promise<StoredQueue | null> {
  return (await inStudioDb(['queue'], 'readonly', (store) => dbGet<StoredQueue>(store('queue'), KEY))) ?? null;
}

export function clearQueue(): Promise<void> {
  return inStudioDb(['queue'], 'readwrite', (store) => dbDelete(store('queue'), KEY));
}
