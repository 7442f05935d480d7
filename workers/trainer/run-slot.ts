/**
 * The studio's open run and what belongs to it: the core/run Run with its env workers, its
 * IndexedDB store and its Runs-list entry. Opening one (fresh, or restored from a save) is
 * core/run's openRun; this adds the studio's bookkeeping around it.
 */
import { reopenCheckpoint } from '../../src/core/run/open-checkpoint';
import { openRun, type OpenedRun } from '../../src/core/run/open-run';
import type { Run } from '../../src/core/run/run';
import type { PausePoint } from '../../src/core/run/run-ports';
import type { TrainerEvent } from '../../src/protocol/trainer-api';
import type { BackendName } from '../../src/core/backend/choose-backend';
import type { ModelSelection } from './model-selection';
import { checkpointInfo } from './model-source';
import type { Autosave, RunAutosaves } from '../../src/core/studio/run-autosave';
import type { RunListings } from '../../src/core/studio/run-listings';
import type { SavedRunOffers } from '../../src/core/studio/saved-run-offers';
import type { StudioEnvs } from './studio-envs';
import { StudioRunStore } from '../../src/core/studio/studio-run-store';

export interface RunSlotParts {
  models: ModelSelection;
  listings: RunListings;
  offers: SavedRunOffers;
  autosaves: RunAutosaves;
  envs: StudioEnvs;
  pauseGate: (where: PausePoint) => Promise<void>;
  emit: (event: TrainerEvent) => void;
  /** Awaited before the run's tensors exist; a restored run names the backend it was saved on. */
  beforeOpen?: (savedOn?: BackendName) => Promise<void>;
}

export class RunSlot {
  private opened?: OpenedRun;
  store?: StudioRunStore;

  constructor(private readonly parts: RunSlotParts) {}

  get run(): Run | undefined {
    return this.opened?.run;
  }

  /** Opens a run of the selected model and config (a restored save when given), with its store and Runs-list entry. */
  async open(restored?: Autosave): Promise<Run> {
    const { models, listings, offers, envs, emit } = this.parts;
    await this.parts.beforeOpen?.(restored?.summary.backend);
    envs.clear();
    const config = models.config;
    const opened = await openRun(config, models.selected?.checkpoint, {
      openEnv: (envConfig, purpose) => envs.open(envConfig, purpose, config), recordEpisodes: true, pauseGate: this.parts.pauseGate,
    });
    this.opened = opened;
    for (const note of opened.notes) emit({ type: 'error', name: 'RunNote', message: note });
    listings.open(opened.run, restored?.listing);
    this.store = new StudioRunStore(opened.run, this.parts.autosaves, listings, emit, () => this.opened === opened);
    this.store.savedIteration = restored?.summary.iteration;
    models.markRunModel(true);
    emit({ type: 'history', records: [...opened.run.history] });
    await listings.keep(opened.run);
    // Until its first save a new run is not what a reload offers; a run offered before stays kept.
    await offers.moveTo(restored?.listing.id);
    return opened.run;
  }

  /** Reopens a saved run where it was saved; if it cannot be opened, the selection and config stay as they were. */
  async restore(saved: Autosave): Promise<Run> {
    const { models } = this.parts;
    const { files } = saved;
    const checkpoint = reopenCheckpoint(files, saved.config);
    const before = { config: models.config, selected: models.selected };
    models.use(saved.config, { files, info: checkpointInfo(files, checkpoint), checkpoint });
    try {
      return await this.open(saved);
    } catch (error) {
      models.use(before.config, before.selected);
      throw error;
    }
  }

  /** After a dead env worker was restarted: true when the iteration may run again, the run's episodes restarted from fresh resets. */
  recover(error: unknown, attempt: number): boolean {
    if (!this.run || !this.parts.envs.recovered(error, attempt)) return false;
    // The weights are those from before the failed iteration.
    this.run.restartEpisodes();
    return true;
  }

  /** Closes the run and its envs; it stays in the Runs list as a past run when it finished an iteration, and its entry is returned. */
  async close(): Promise<{ run?: Run; listing?: Awaited<ReturnType<RunListings['release']>> }> {
    const opened = this.opened;
    this.opened = undefined;
    this.store = undefined;
    await opened?.close();
    this.parts.envs.clear();
    const listing = await this.parts.listings.release(opened?.run);
    if (opened) this.parts.models.markRunModel(false);
    return { run: opened?.run, listing };
  }
}
