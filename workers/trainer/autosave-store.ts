/** The saved runs (core/studio/saved-runs) in this worker's IndexedDB, as functions. */
import type { SavedRun } from '../../src/core/studio/saved-runs';
import { savedRuns } from './indexeddb-stores';

export type { SavedRun, SavedRunOffer } from '../../src/core/studio/saved-runs';

export const writeRunSave = (save: SavedRun) => savedRuns.write(save);
export const readRunSave = (runId: string) => savedRuns.read(runId);
export const readOffer = () => savedRuns.offer();
export const readSavedRun = () => savedRuns.offered();
