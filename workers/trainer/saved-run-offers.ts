/** The resume offer (core/studio/saved-run-offers) over this worker's IndexedDB. */
import type { RunListings } from '../../src/core/studio/run-listings';
import { SavedRunOffers as CoreSavedRunOffers } from '../../src/core/studio/saved-run-offers';
import type { TrainerEvent } from '../../src/protocol/trainer-api';
import { runArchive, savedRuns } from './indexeddb-stores';

export class SavedRunOffers extends CoreSavedRunOffers {
  constructor(emit: (event: TrainerEvent) => void, listings: RunListings) {
    super(emit, listings, savedRuns, runArchive);
  }
}
