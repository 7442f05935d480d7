/**
 * The studio's saved runs. Each run's newest save is kept under its Runs-list id, so no run's
 * autosave replaces another's (DESIGN.md §15); the 'autosave' store holds one small record naming
 * the run a reload offers to resume (the run that was current when the page went away). A run's
 * save goes when the run is deleted from the Runs list.
 */
import type { MetricRecord } from '../metrics/metric-keys';
import type { RunConfig } from '../config/run-config';
import type { SavedRunSummary } from '../../protocol/trainer-api';
import { currentOffer, type SavedRunOffer } from './legacy-offer';
import { OFFER_KEY, type StoredListing } from './run-archive';
import type { StudioStore, StudioStores } from './studio-stores';

export type { SavedRunOffer } from './legacy-offer';

export interface SavedRun {
  summary: SavedRunSummary;
  /** The run's id and entry in the Runs list. */
  runId: string;
  listing: StoredListing;
  config: RunConfig;
  /** .flowtune bytes with optimizer state and progress. */
  checkpoint: Uint8Array;
  history: MetricRecord[];
}

/** Every store an offer change may touch: an autosave from before per-run saves is moved on the way. */
const OFFER_STORES: readonly StudioStore[] = ['autosave', 'run-saves', 'run-listings', 'run-data'];

const offerOf = (save: SavedRun): SavedRunOffer => ({ runId: save.runId, name: save.listing.name, summary: save.summary });

export class SavedRuns {
  constructor(private readonly db: StudioStores) {}

  /** Keeps the run's save (replacing only its own older one), its listing, and makes it the run a reload offers; one transaction. */
  write(save: SavedRun): Promise<void> {
    return this.db.transact(OFFER_STORES, 'readwrite', async (store) => {
      await currentOffer(store);
      await store('run-saves').put(save.runId, save);
      await store('run-listings').put(save.runId, save.listing);
      await store('autosave').put(OFFER_KEY, offerOf(save));
    });
  }

  /** One run's newest save; null when it keeps none. */
  async read(runId: string): Promise<SavedRun | null> {
    return (await this.db.transact(['run-saves'], 'readonly', (store) => store('run-saves').get<SavedRun>(runId))) ?? null;
  }

  /** The run a reload offers, without its weights; null when none is offered. */
  offer(): Promise<SavedRunOffer | null> {
    return this.db.transact(OFFER_STORES, 'readwrite', (store) => currentOffer(store));
  }

  /** The offered run's save (the queue resumes its run from it); null when none is offered. */
  async offered(): Promise<SavedRun | null> {
    const offer = await this.offer();
    return offer ? this.read(offer.runId) : null;
  }

  /**
   * Makes `runId`'s save the one a reload offers (none when undefined or when the run keeps no save),
   * and returns the run offered before when it was another: that run stays kept, only the offer moves.
   */
  moveOffer(runId: string | undefined): Promise<SavedRunOffer | null> {
    return this.db.transact(OFFER_STORES, 'readwrite', async (store) => {
      const before = await currentOffer(store);
      const save = runId === undefined ? undefined : await store('run-saves').get<SavedRun>(runId);
      if (save) await store('autosave').put(OFFER_KEY, offerOf(save));
      else await store('autosave').delete(OFFER_KEY);
      return before && before.runId !== runId ? before : null;
    });
  }

  /** Withdraws the offer when it names `runId` (a Reset of that run); other offers stay. */
  withdrawOffer(runId: string): Promise<void> {
    return this.db.transact(OFFER_STORES, 'readwrite', async (store) => {
      if ((await currentOffer(store))?.runId === runId) await store('autosave').delete(OFFER_KEY);
    });
  }
}
