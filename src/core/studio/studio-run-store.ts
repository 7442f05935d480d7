/**
 * The studio's RunStore (DESIGN.md §2: the CLI's run folder and the studio's IndexedDB are two
 * stores under one loop): each save replaces the run's own autosave and keeps its Runs-list entry
 * current; a rollback returns to that autosave. A failed save is reported and never stops the run.
 */
import type { CheckpointFiles } from '../run/open-checkpoint';
import type { Run } from '../run/run';
import type { RunStore } from '../run/run-ports';
import type { TrainerEvent } from '../../protocol/trainer-api';
import type { RunAutosaves } from './run-autosave';
import type { RunListings } from './run-listings';

export class StudioRunStore implements RunStore {
  /** The iteration of the run's newest save. */
  savedIteration?: number;

  /** `isCurrent` turns false once the run is reset, so a save still in flight leaves the Runs list alone. */
  constructor(
    private readonly run: Run,
    private readonly autosaves: RunAutosaves,
    private readonly listings: RunListings,
    private readonly emit: (event: TrainerEvent) => void,
    private readonly isCurrent: () => boolean,
  ) {}

  async saveCheckpoint(_name: string, bytes: Uint8Array): Promise<void> {
    if (this.run.iteration === 0) return;
    try {
      const saved = await this.autosaves.write(bytes, this.run, this.listings.current(this.run));
      if (this.isCurrent()) {
        this.listings.listing = saved.listing;
        this.savedIteration = saved.summary.iteration;
      }
    } catch (error) {
      this.emit({ type: 'error', name: 'AutosaveError', message: `autosave failed: ${(error as Error).message}` });
    }
    if (this.isCurrent()) await this.listings.keep(this.run);
  }

  /** The page gets each record as an event, and the Runs list gets the history with every save. */
  async appendMetrics(): Promise<void> {}

  async replaceMetrics(): Promise<void> {
    if (this.isCurrent()) await this.listings.keep(this.run);
  }

  async newestCheckpoint(): Promise<{ files: CheckpointFiles; iteration: number } | undefined> {
    const id = this.listings.currentId;
    const saved = id === undefined ? null : await this.autosaves.own(id);
    return saved ? { files: saved.files, iteration: saved.summary.iteration } : undefined;
  }
}
