/**
 * The run a reload offers to resume (DESIGN.md §15): the one that was current when the page went
 * away. The offer only ever moves: a run offered before stays in the Runs list with its weights,
 * and the page is told so in one sentence. Nothing here deletes a save but Discard.
 */
import type { SavedRunSummary, TrainerEvent } from '../../protocol/trainer-api';
import type { RunArchive, StoredListing } from './run-archive';
import type { RunListings } from './run-listings';
import type { SavedRuns } from './saved-runs';

const keptSentence = (name: string, iteration: number) => `the saved run ${name} from iteration ${iteration} is kept in the Runs list with its weights: resume it there`;

export class SavedRunOffers {
  /** `listings` says which run is open: the open run is never offered. */
  constructor(
    private readonly emit: (event: TrainerEvent) => void,
    private readonly listings: RunListings,
    private readonly saved: SavedRuns,
    private readonly archive: RunArchive,
  ) {}

  /** The run a reload offers, unless it is the open one; null when there is none. */
  async offered(): Promise<SavedRunSummary | null> {
    const offer = await this.saved.offer();
    return offer && offer.runId !== this.listings.currentId ? { ...offer.summary, name: offer.name } : null;
  }

  /** Tells the page what the resume banner offers now. */
  async announce(): Promise<void> {
    this.emit({ type: 'saved-run', saved: await this.offered().catch(() => null) });
  }

  /** Points a reload's offer at `runId` (none: a new run that has not saved yet). */
  async moveTo(runId: string | undefined): Promise<void> {
    try {
      const before = await this.saved.moveOffer(runId);
      if (before) this.emit({ type: 'notice', message: keptSentence(before.name, before.summary.iteration) });
    } catch (error) {
      this.emit({ type: 'error', name: 'AutosaveError', message: `the resume offer could not be updated (every saved run is still kept): ${(error as Error).message}` });
    }
    await this.announce();
  }

  /** Withdraws the offer; the run stays in the Runs list with its weights. */
  async keep(): Promise<void> {
    const offer = await this.saved.offer();
    if (offer && offer.runId !== this.listings.currentId) {
      await this.saved.withdrawOffer(offer.runId);
      this.emit({ type: 'notice', message: keptSentence(offer.name, offer.summary.iteration) });
    }
    await this.announce();
  }

  /** Deletes the offered run with its weights, config and metrics (as its Runs-list row's delete does). */
  async discard(): Promise<void> {
    const offer = await this.saved.offer();
    const currentId = this.listings.currentId;
    if (offer && offer.runId !== currentId) {
      await this.archive.forgetRuns([offer.runId], currentId);
      this.emit({ type: 'notice', message: `the saved run ${offer.name} from iteration ${offer.summary.iteration} was deleted` });
      await this.listings.announce();
    }
    await this.announce();
  }

  /** A reset run is kept, not offered: a reload after Reset offers nothing to resume; `announce` says so in one sentence. */
  async keepOnReset(listing: StoredListing, announce: boolean): Promise<void> {
    try {
      await this.saved.withdrawOffer(listing.id);
    } catch (error) {
      this.emit({ type: 'error', name: 'AutosaveError', message: `the reset run is kept, but a reload may still offer it: ${(error as Error).message}` });
    }
    if (!announce) return;
    this.emit({
      type: 'notice',
      message: listing.savedIteration === undefined
        ? `${listing.name} is kept in the Runs list with its metrics; it saved no weights, so it cannot be resumed`
        : `${listing.name} is kept in the Runs list with its weights from iteration ${listing.savedIteration}: resume it there`,
    });
  }
}
