/**
 * The studio's store for a run (DESIGN.md §2 "a store (files, IndexedDB)"): the whole run as a
 * .flowtune with its resume state, plus the summary the resume banner shows, in IndexedDB.
 */
import { encodeFlowtune } from '../../src/core/checkpoint/flowtune-file';
import { cloneConfig, validateConfig, type RunConfig } from '../../src/core/config';
import { TrainingError } from '../../src/core/errors';
import type { Run } from '../../src/core/run/run';
import type { CheckpointFiles, SavedRunSummary } from '../../src/protocol/trainer-api';
import { readSavedRun, writeSavedRun } from './autosave-store';
import type { StoredListing } from './run-archive';

/** Overwrites the autosave with the run as it is now, and the Runs-list entry it belongs to. */
export async function autosaveRun(run: Run, listing: StoredListing): Promise<SavedRunSummary> {
  const checkpoint = encodeFlowtune(await run.contents());
  const summary: SavedRunSummary = { task: run.config.task, iteration: run.iteration, envSteps: run.envSteps, savedAt: Date.now(), records: run.history.length };
  await writeSavedRun({ summary, runId: listing.id, listing, config: cloneConfig(run.config), checkpoint, history: [...run.history] });
  return summary;
}

export interface Autosave {
  summary: SavedRunSummary;
  config: RunConfig;
  files: CheckpointFiles;
  /** The Runs-list entry it belongs to, when the autosave names one. */
  listing?: StoredListing;
}

/** The autosave as a checkpoint to open a run from, with the config it ran under. */
export async function readAutosave(): Promise<Autosave> {
  const saved = await readSavedRun();
  if (!saved) throw new TrainingError('there is no autosaved run to resume');
  const files: CheckpointFiles = { kind: 'flowtune', name: `autosave (iteration ${saved.summary.iteration})`, bytes: saved.checkpoint };
  return { summary: saved.summary, config: validateConfig(saved.config), files, listing: saved.listing };
}
