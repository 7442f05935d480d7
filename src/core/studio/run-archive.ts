/**
 * The kept runs of the Runs tab (DESIGN.md §11 "In the studio"): studio and queue runs as they
 * autosave, imported run folders, and imported sweeps. Listings and data live in separate stores,
 * so listing the runs never reads their metrics.
 */
import { deriveSizes } from '../config/derive';
import type { RunConfig } from '../config/run-config';
import { ImportError, TrainingError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import type { ImportedSweep, RunDetails, RunListing } from '../../protocol/runs-api';
import type { StudioStores } from './studio-stores';

/** The key of the 'autosave' store's record naming the run a reload offers. */
export const OFFER_KEY = 'latest';

/** A listing as stored: whether it is the current run is the session's to say. */
export type StoredListing = Omit<RunListing, 'current'>;

/** A kept run: its listing, config and metrics. */
export interface KeptRun {
  listing: StoredListing;
  config: RunConfig;
  records: readonly MetricRecord[];
}

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

export class RunArchive {
  constructor(private readonly db: StudioStores) {}

  /** Writes (or overwrites) runs with their config and metrics. */
  keepRuns(runs: readonly KeptRun[]): Promise<void> {
    return this.db.transact(['run-listings', 'run-data'], 'readwrite', async (store) => {
      for (const run of runs) {
        await store('run-listings').put(run.listing.id, run.listing);
        await store('run-data').put(run.listing.id, { config: run.config, records: [...run.records] } satisfies StoredRunData);
      }
    });
  }

  /** Every kept run, newest first. */
  async listings(): Promise<StoredListing[]> {
    const listings = await this.db.transact(['run-listings'], 'readonly', (store) => store('run-listings').getAll<StoredListing>());
    return listings.sort((a, b) => b.updatedAt - a.updatedAt || a.name.localeCompare(b.name));
  }

  /** The runs with their config and metrics, in the order asked. */
  details(ids: readonly string[], current: string | undefined): Promise<RunDetails[]> {
    return this.db.transact(['run-listings', 'run-data'], 'readonly', async (store) => {
      const details: RunDetails[] = [];
      for (const id of ids) {
        const listing = await store('run-listings').get<StoredListing>(id);
        const data = await store('run-data').get<StoredRunData>(id);
        if (!listing || !data) throw new ImportError(`run ${id} is not kept in this browser (it was deleted, or the list is stale: reload)`);
        details.push({ listing: { ...listing, current: id === current }, config: data.config, records: data.records });
      }
      return details;
    });
  }

  /** Forgets runs with their saved weights, and the reload's offer of one of them; the current run is refused at once. */
  forgetRuns(ids: readonly string[], current: string | undefined): Promise<void> {
    if (current !== undefined && ids.includes(current)) throw new TrainingError('the current run cannot be deleted: reset it first');
    return this.db.transact(['run-listings', 'run-data', 'run-saves', 'autosave'], 'readwrite', async (store) => {
      for (const id of ids) {
        await store('run-listings').delete(id);
        await store('run-data').delete(id);
        await store('run-saves').delete(id);
      }
      // The offer record names its run by id (an older studio's whole save too).
      const offered = await store('autosave').get<{ runId?: string }>(OFFER_KEY);
      if (offered?.runId !== undefined && ids.includes(offered.runId)) await store('autosave').delete(OFFER_KEY);
    });
  }

  keepSweeps(sweeps: readonly ImportedSweep[]): Promise<void> {
    return this.db.transact(['sweeps'], 'readwrite', async (store) => {
      for (const sweep of sweeps) await store('sweeps').put(sweep.id, sweep);
    });
  }

  async sweeps(): Promise<ImportedSweep[]> {
    const sweeps = await this.db.transact(['sweeps'], 'readonly', (store) => store('sweeps').getAll<ImportedSweep>());
    return sweeps.sort((a, b) => b.importedAt - a.importedAt);
  }

  /** Forgets an imported sweep and the runs imported with it. */
  async forgetSweep(id: string): Promise<void> {
    const sweep = await this.db.transact(['sweeps'], 'readonly', (store) => store('sweeps').get<ImportedSweep>(id));
    if (!sweep) throw new ImportError(`sweep ${id} is not kept in this browser`);
    await this.forgetRuns(sweep.runIds, undefined);
    await this.db.transact(['sweeps'], 'readwrite', (store) => store('sweeps').delete(id));
  }
}
