/**
 * The kept runs of the Runs tab (DESIGN.md §11 "In the studio"), in IndexedDB: studio and queue runs
 * as they autosave, imported run folders, and imported sweeps. Listings and data live in separate
 * stores, so listing the runs never reads their metrics.
 */
import { deriveSizes } from '../../src/core/config/derive';
import type { RunConfig } from '../../src/core/config/run-config';
import { ImportError, TrainingError } from '../../src/core/errors';
import type { MetricRecord } from '../../src/core/metrics/metric-keys';
import type { ImportedSweep, RunDetails, RunListing } from '../../src/protocol/runs-api';
import { dbDelete, dbGet, dbGetAll, dbPut, inStudioDb } from './studio-db';

/** The key of the 'autosave' store's record naming the run a reload offers. */
export const OFFER_KEY = 'latest';

/** A listing as stored: whether it is the current run is the session's to say. */
export type StoredListing = Omit<RunListing, 'current'>;

interface StoredRunData {
  config: RunConfig;
  records: MetricRecord[];
}

/** Iterations, env steps, newest eval success and return, and whether the run is finished, from its metrics. */
export function runProgress(config: RunConfig, records: readonly MetricRecord[]): Pick<RunListing, 'iterations' | 'envSteps' | 'finalSuccess' | 'finalReturn' | 'finished'> {
  const last = records.at(-1);
  const iterations = last?.['progress/iteration'] ?? records.length;
  let finalSuccess: number | undefined;
  let finalReturn: number | undefined;
  for (const record of records) {
    finalSuccess = record['eval/success_rate'] ?? finalSuccess;
    finalReturn = record['eval/episode_return'] ?? finalReturn;
  }
  return {
    iterations,
    envSteps: last?.['progress/env_steps'] ?? 0,
    finalSuccess,
    finalReturn,
    finished: iterations >= deriveSizes(config).iterations,
  };
}

/** Writes (or overwrites) runs with their config and metrics. */
export function keepRuns(runs: readonly { listing: StoredListing; config: RunConfig; records: readonly MetricRecord[] }[]): Promise<void> {
  return inStudioDb(['run-listings', 'run-data'], 'readwrite', async (store) => {
    for (const run of runs) {
      await dbPut(store('run-listings'), run.listing.id, run.listing);
      await dbPut(store('run-data'), run.listing.id, { config: run.config, records: [...run.records] } satisfies StoredRunData);
    }
  });
}

/** Every kept run, newest first. */
export async function keptListings(): Promise<StoredListing[]> {
  const listings = await inStudioDb(['run-listings'], 'readonly', (store) => dbGetAll<StoredListing>(store('run-listings')));
  return listings.sort((a, b) => b.updatedAt - a.updatedAt || a.name.localeCompare(b.name));
}

/** The runs with their config and metrics, in the order asked. */
export function keptRunDetails(ids: readonly string[], current: string | undefined): Promise<RunDetails[]> {
  return inStudioDb(['run-listings', 'run-data'], 'readonly', async (store) => {
    const details: RunDetails[] = [];
    for (const id of ids) {
      const listing = await dbGet<StoredListing>(store('run-listings'), id);
      const data = await dbGet<StoredRunData>(store('run-data'), id);
      if (!listing || !data) throw new ImportError(`run ${id} is not kept in this browser (it was deleted, or the list is stale: reload)`);
      details.push({ listing: { ...listing, current: id === current }, config: data.config, records: data.records });
    }
    return details;
  });
}

/** Forgets runs with their saved weights, and the reload's offer of one of them; the current run is refused. */
export function forgetRuns(ids: readonly string[], current: string | undefined): Promise<void> {
  if (current !== undefined && ids.includes(current)) throw new TrainingError('the current run cannot be deleted: reset it first');
  return inStudioDb(['run-listings', 'run-data', 'run-saves', 'autosave'], 'readwrite', async (store) => {
    for (const id of ids) {
      await dbDelete(store('run-listings'), id);
      await dbDelete(store('run-data'), id);
      await dbDelete(store('run-saves'), id);
    }
    // The offer record names its run by id (an older studio's whole save too).
    const offered = await dbGet<{ runId?: string }>(store('autosave'), OFFER_KEY);
    if (offered?.runId !== undefined && ids.includes(offered.runId)) await dbDelete(store('autosave'), OFFER_KEY);
  });
}

export function keepSweeps(sweeps: readonly ImportedSweep[]): Promise<void> {
  return inStudioDb(['sweeps'], 'readwrite', async (store) => {
    for (const sweep of sweeps) await dbPut(store('sweeps'), sweep.id, sweep);
  });
}

export async function keptSweeps(): Promise<ImportedSweep[]> {
  const sweeps = await inStudioDb(['sweeps'], 'readonly', (store) => dbGetAll<ImportedSweep>(store('sweeps')));
  return sweeps.sort((a, b) => b.importedAt - a.importedAt);
}

/** Forgets an imported sweep and the runs imported with it. */
export async function forgetSweep(id: string): Promise<void> {
  const sweep = await inStudioDb(['sweeps'], 'readonly', (store) => dbGet<ImportedSweep>(store('sweeps'), id));
  if (!sweep) throw new ImportError(`sweep ${id} is not kept in this browser`);
  await forgetRuns(sweep.runIds, undefined);
  await inStudioDb(['sweeps'], 'readwrite', (store) => dbDelete(store('sweeps'), id));
}
