/** The autosaved run in IndexedDB (available in workers): one record, overwritten on each save. */
import type { MetricRecord } from '../../src/core/metrics/metric-keys';
import type { RunConfig } from '../../src/core/config/run-config';
import type { SavedRunSummary } from '../../src/protocol/trainer-api';
import type { StoredListing } from './run-archive';
import { dbDelete, dbGet, dbPut, inStudioDb } from './studio-db';

const KEY = 'latest';

export interface SavedRun {
  summary: SavedRunSummary;
  /** The run's id and entry in the Runs list (absent in autosaves from before the list existed). */
  runId?: string;
  listing?: StoredListing;
  config: RunConfig;
  /** .flowtune bytes with optimizer state and progress. */
  checkpoint: Uint8Array;
  history: MetricRecord[];
}

export function writeSavedRun(run: SavedRun): Promise<void> {
  return inStudioDb(['autosave'], 'readwrite', (store) => dbPut(store('autosave'), KEY, run));
}

export async function readSavedRun(): Promise<SavedRun | null> {
  return (await inStudioDb(['autosave'], 'readonly', (store) => dbGet<SavedRun>(store('autosave'), KEY))) ?? null;
}

export function clearSavedRun(): Promise<void> {
  return inStudioDb(['autosave'], 'readwrite', (store) => dbDelete(store('autosave'), KEY));
}
