/**
 * The studio's saved runs in IndexedDB (available in workers). Each run's newest save is kept under
 * its Runs-list id, so no run's autosave replaces another's (DESIGN.md §15); the 'autosave' store
 * holds one small record naming the run a reload offers to resume (the run that was current when the
 * page went away). A run's save goes when the run is deleted from the Runs list.
 */
import type { MetricRecord } from '../../src/core/metrics/metric-keys';
import type { RunConfig } from '../../src/core/config/run-config';
import type { SavedRunSummary } from '../../src/protocol/trainer-api';
import { currentOffer, type SavedRunOffer } from './legacy-autosave';
import { OFFER_KEY, type StoredListing } from './run-archive';
import { dbDelete, dbGet, dbPut, inStudioDb, type StudioStore } from './studio-db';

export type { SavedRunOffer } from './legacy-autosave';

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

/** Keeps the run's save (replacing only its own older one), its listing, and makes it the run a reload offers; one transaction. */
export function writeRunSave(save: SavedRun): Promise<void> {
  return inStudioDb(OFFER_STORES, 'readwrite', async (store) => {
    await currentOffer(store);
    await dbPut(store('run-saves'), save.runId, save);
    await dbPut(store('run-listings'), save.runId, save.listing);
    await dbPut(store('autosave'), OFFER_KEY, { runId: save.runId, name: save.listing.name, summary: save.summary } satisfies SavedRunOffer);
  });
}

/** One run's newest save; null when it keeps none. */
export async function readRunSave(runId: string): Promise<SavedRun | null> {
  return (await inStudioDb(['run-saves'], 'readonly', (store) => dbGet<SavedRun>(store('run-saves'), runId))) ?? null;
}

/** The run a reload offers, without its weights; null when none is offered. */
export function readOffer(): Promise<SavedRunOffer | null> {
  return inStudioDb(OFFER_STORES, 'readwrite', (store) => currentOffer(store));
}

/** The offered run's save (the queue resumes its run from it); null when none is offered. */
export async function readSavedRun(): Promise<SavedRun | null> {
  const offer = await readOffer();
  return offer ? readRunSave(offer.runId) : null;
}

/**
 * Makes `runId`'s save the one a reload offers (none when undefined or when the run keeps no save),
 * and returns the run offered before when it was another: that run stays kept, only the offer moves.
 */
export function moveOffer(runId: string | undefined): Promise<SavedRunOffer | null> {
  return inStudioDb(OFFER_STORES, 'readwrite', async (store) => {
    const before = await currentOffer(store);
    const save = runId === undefined ? undefined : await dbGet<SavedRun>(store('run-saves'), runId);
    if (save) await dbPut(store('autosave'), OFFER_KEY, { runId: save.runId, name: save.listing.name, summary: save.summary } satisfies SavedRunOffer);
    else await dbDelete(store('autosave'), OFFER_KEY);
    return before && before.runId !== runId ? before : null;
  });
}

/** Withdraws the offer when it names `runId` (a Reset of that run); other offers stay. */
export function withdrawOffer(runId: string): Promise<void> {
  return inStudioDb(OFFER_STORES, 'readwrite', async (store) => {
    if ((await currentOffer(store))?.runId === runId) await dbDelete(store('autosave'), OFFER_KEY);
  });
}
