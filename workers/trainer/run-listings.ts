/** The Runs list's current entry (core/studio/run-listings) kept in this worker's IndexedDB. */
import { RunListings as CoreRunListings } from '../../src/core/studio/run-listings';
import type { TrainerEvent } from '../../src/protocol/trainer-api';
import { runArchive } from './indexeddb-stores';

export class RunListings extends CoreRunListings {
  constructor(emit: (event: TrainerEvent) => void) {
    super(emit, runArchive);
  }
}
