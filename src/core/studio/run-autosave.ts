/**
 * The studio's store for a run (DESIGN.md §2 "a store (files, IndexedDB)"): the whole run as a
 * .flowtune with its resume state, plus the summary the resume banner and the Runs list show, kept
 * in IndexedDB under the run's id.
 */
import * as tf from '@tensorflow/tfjs';
import { cloneConfig, validateConfig, type RunConfig } from '../config';
import { TrainingError } from '../errors';
import type { Run } from '../run/run';
import type { BackendName } from '../backend/choose-backend';
import type { CheckpointFiles, SavedRunSummary } from '../../protocol/trainer-api';
import type { StoredListing } from './run-archive';
import type { SavedRun, SavedRuns } from './saved-runs';

export interface Autosave {
  summary: SavedRunSummary;
  config: RunConfig;
  files: CheckpointFiles;
  /** The Runs-list entry it belongs to. */
  listing: StoredListing;
}

function asCheckpoint(saved: SavedRun): Autosave {
  const files: CheckpointFiles = { kind: 'flowtune', name: `${saved.listing.name} at iteration ${saved.summary.iteration}`, bytes: saved.checkpoint };
  return { summary: saved.summary, config: validateConfig(saved.config), files, listing: saved.listing };
}

/** A run's autosaves over the studio's saved runs (IndexedDB in the browser, memory in tests). */
export class RunAutosaves {
  constructor(private readonly saves: SavedRuns) {}

  /**
   * Replaces the run's own save with `checkpoint` (the run as it is now, encoded by the loop) and
   * makes it the run a reload offers; returns the summary and the listing as kept (with the saved iteration).
   */
  async write(checkpoint: Uint8Array, run: Run, listing: StoredListing): Promise<{ summary: SavedRunSummary; listing: StoredListing }> {
    const summary: SavedRunSummary = {
      name: listing.name, task: run.config.task, iteration: run.iteration, envSteps: run.envSteps, savedAt: Date.now(), records: run.history.length,
      backend: tf.getBackend() as BackendName,
    };
    const kept: StoredListing = { ...listing, savedIteration: run.iteration };
    await this.saves.write({ summary, runId: kept.id, listing: kept, config: cloneConfig(run.config), checkpoint, history: [...run.history] });
    return { summary, listing: kept };
  }

  /** The offered run's save as a checkpoint to open a run from, with the config it ran under. */
  async offered(): Promise<Autosave> {
    const saved = await this.saves.offered();
    if (!saved) throw new TrainingError('there is no autosaved run to resume');
    return asCheckpoint(saved);
  }

  /** A kept run's save as a checkpoint to open a run from; null when the run keeps none. */
  async own(runId: string): Promise<Autosave | null> {
    const saved = await this.saves.read(runId);
    return saved ? asCheckpoint(saved) : null;
  }

  /** A kept run's save as a checkpoint to open a run from. */
  async ofRun(runId: string): Promise<Autosave> {
    const saved = await this.own(runId);
    if (!saved) throw new TrainingError(`run ${runId} keeps no saved weights to resume from (it never autosaved, was imported, or was deleted)`);
    return saved;
  }
}
