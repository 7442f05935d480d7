/** The studio's queue as kept, so a reload finds it: its status, each run's config, and the model it starts from. */
import type { RunConfig } from '../config/run-config';
import type { CheckpointFiles, QueueStatus } from '../../protocol/trainer-api';
import type { StudioStores } from './studio-stores';

const KEY = 'active';

export interface StoredQueue {
  status: QueueStatus;
  /** One config per item, computed when the queue started. */
  configs: RunConfig[];
  /** The model every run starts from (none: a fresh policy). */
  files?: CheckpointFiles;
}

/** Where the queue is kept; the studio's is StudioStores, tests may keep it in a variable. */
export interface QueueStore {
  read(): Promise<StoredQueue | null>;
  write(queue: StoredQueue): Promise<void>;
}

/** The queue in the 'queue' store under one key. */
export function studioQueueStore(db: StudioStores): QueueStore {
  return {
    read: async () => (await db.transact(['queue'], 'readonly', (store) => store('queue').get<StoredQueue>(KEY))) ?? null,
    write: (queue) => db.transact(['queue'], 'readwrite', (store) => store('queue').put(KEY, queue)),
  };
}
