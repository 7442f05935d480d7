/**
 * The current run's entry in the Runs list (DESIGN.md §11 "In the studio"): named when the run
 * opens (by the queue, or "task HH:MM"), kept in the archive with its config and metrics as it
 * saves, and left there as a past run when it ends. A failed write is reported, never fatal.
 */
import { cloneConfig } from '../config';
import type { Run } from '../run/run';
import type { RunListing, RunOrigin, TrainerEvent } from '../../protocol/trainer-api';
import { runProgress, type RunArchive, type StoredListing } from './run-archive';

/** What the listing reads of a run. */
export type ListedRun = Pick<Run, 'config' | 'history' | 'iteration'>;

/** How a run is listed in the Runs tab; a studio run unless the queue labels it. */
export interface RunLabel {
  origin: RunOrigin;
  name?: string;
  group?: string;
  variant?: string;
  seed?: number;
}

const clock = (time: number) => new Date(time).toTimeString().slice(0, 5);

export class RunListings {
  /** The open run's entry. */
  listing?: StoredListing;
  /** The label of the next run opened (the queue sets it). */
  nextLabel?: RunLabel;

  constructor(private readonly emit: (event: TrainerEvent) => void, private readonly archive: RunArchive) {}

  get currentId(): string | undefined {
    return this.listing?.id;
  }

  /** Names a newly opened run: the queue's label, or "task HH:MM"; a restored run keeps its own entry. */
  open(run: ListedRun, restored?: StoredListing): void {
    if (restored) {
      this.listing = restored;
      return;
    }
    const label = this.nextLabel ?? { origin: 'studio' };
    this.nextLabel = undefined;
    const now = Date.now();
    this.listing = {
      id: `${label.origin}-${now}-${Math.floor(Math.random() * 1e6)}`, name: label.name ?? `${run.config.task} ${clock(now)}`,
      origin: label.origin, task: run.config.task, group: label.group, variant: label.variant, seed: label.seed ?? run.config.seed,
      ...runProgress(run.config, run.history), createdAt: now, updatedAt: now,
    };
  }

  /** The entry with the run's progress now. */
  current(run: ListedRun): StoredListing {
    if (!this.listing) this.open(run);
    this.listing = { ...this.listing!, ...runProgress(run.config, run.history), updatedAt: Date.now() };
    return this.listing;
  }

  /** Writes the run into the Runs list (config and metrics) and announces the list. */
  async keep(run: ListedRun): Promise<void> {
    try {
      await this.archive.keepRuns([{ listing: this.current(run), config: cloneConfig(run.config), records: run.history }]);
      await this.announce();
    } catch (error) {
      this.emit({ type: 'error', name: 'RunListError', message: `the run could not be kept in the Runs list: ${(error as Error).message}` });
    }
  }

  /** Ends the entry: dropped when the run never finished an iteration, otherwise kept as a past run. */
  async release(run: ListedRun | undefined): Promise<StoredListing | undefined> {
    const listing = this.listing;
    this.listing = undefined;
    if (!listing) return undefined;
    try {
      if (!run || run.iteration === 0) await this.archive.forgetRuns([listing.id], undefined);
      await this.announce();
    } catch (error) {
      this.emit({ type: 'error', name: 'RunListError', message: `the Runs list could not be updated: ${(error as Error).message}` });
    }
    return listing;
  }

  /** Every kept run, the current one marked. */
  async all(): Promise<RunListing[]> {
    const current = this.currentId;
    return (await this.archive.listings()).map((listing) => ({ ...listing, current: listing.id === current }));
  }

  async announce(): Promise<void> {
    this.emit({ type: 'runs', runs: await this.all() });
  }
}
