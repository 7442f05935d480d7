/**
 * The offer record of the 'autosave' store, and the move of an older studio's autosave into the
 * per-run saves. Before runs kept their own saves, the record under 'latest' was the whole save of
 * whichever run autosaved last; it is moved under its run's id (with a Runs-list entry when it has
 * none) before anything else reads or replaces the offer, so an upgrade loses no saved run.
 */
import type { MetricRecord } from '../metrics/metric-keys';
import type { RunConfig } from '../config/run-config';
import type { SavedRunSummary } from '../../protocol/trainer-api';
import { OFFER_KEY, runProgress, type StoredListing } from './run-archive';
import type { StoreAccess } from './studio-stores';

/** What a reload offers to resume: the run's id, its name in the Runs list, and where its save stands. */
export interface SavedRunOffer {
  runId: string;
  name: string;
  summary: SavedRunSummary;
}

/** The whole save as older studios kept it under 'latest'. */
interface LegacySave {
  summary: SavedRunSummary;
  runId?: string;
  listing?: StoredListing;
  config: RunConfig;
  checkpoint: Uint8Array;
  history: MetricRecord[];
}

const isLegacy = (record: SavedRunOffer | LegacySave): record is LegacySave => 'checkpoint' in record;

/** A Runs-list entry for a save from before the list existed. */
function legacyListing(runId: string, legacy: LegacySave): StoredListing {
  const { summary, config, history } = legacy;
  const time = new Date(summary.savedAt).toTimeString().slice(0, 5);
  return {
    id: runId, name: `${summary.task} ${time}`, origin: 'studio', task: summary.task, seed: config.seed,
    ...runProgress(config, history), createdAt: summary.savedAt, updatedAt: summary.savedAt,
  };
}

/**
 * The offer, within a transaction over the 'autosave', 'run-saves', 'run-listings' and 'run-data'
 * stores; an older studio's whole save under 'latest' is first moved under its run's id.
 */
export async function currentOffer(store: StoreAccess): Promise<SavedRunOffer | null> {
  const record = await store('autosave').get<SavedRunOffer | LegacySave>(OFFER_KEY);
  if (!record) return null;
  if (!isLegacy(record)) return record;
  const runId = record.runId ?? `studio-${record.summary.savedAt}-saved`;
  const kept = await store('run-listings').get<StoredListing>(runId);
  const listing: StoredListing = { ...(kept ?? record.listing ?? legacyListing(runId, record)), savedIteration: record.summary.iteration };
  if (!kept) await store('run-data').put(runId, { config: record.config, records: record.history });
  await store('run-listings').put(runId, listing);
  await store('run-saves').put(runId, { summary: record.summary, runId, listing, config: record.config, checkpoint: record.checkpoint, history: record.history });
  const offer: SavedRunOffer = { runId, name: listing.name, summary: record.summary };
  await store('autosave').put(OFFER_KEY, offer);
  return offer;
}
