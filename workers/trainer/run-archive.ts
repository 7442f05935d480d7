/** The Runs tab's archive (core/studio/run-archive) in this worker's IndexedDB. */
import { runArchive } from './indexeddb-stores';

export type { StoredListing } from '../../src/core/studio/run-archive';

export const keptListings = () => runArchive.listings();
