import { describe, expect, it } from 'vitest';
import { smallConfig } from '../run/fixtures/test-checkpoints';
import type { Run } from '../run/run';
import { TrainingError } from '../errors';
import type { TrainerEvent } from '../../protocol/trainer-api';
import { MemoryStudioStores } from './memory-stores';
import { RunArchive } from './run-archive';
import { RunAutosaves } from './run-autosave';
import { RunListings } from './run-listings';
import { SavedRuns } from './saved-runs';
import { StudioRunStore } from './studio-run-store';

/** The parts of a Run the studio's store reads: its counters, config and history. */
function fakeRun(iteration: number): Run {
  return { iteration, envSteps: iteration * 64, config: smallConfig(), history: Array.from({ length: iteration }, (_, index) => ({ 'progress/iteration': index + 1 })) } as unknown as Run;
}

function studio() {
  const stores = new MemoryStudioStores();
  const events: TrainerEvent[] = [];
  const archive = new RunArchive(stores);
  const listings = new RunListings((event) => events.push(event), archive);
  const autosaves = new RunAutosaves(new SavedRuns(stores));
  return { events, archive, listings, autosaves };
}

describe('StudioRunStore and RunAutosaves (the studio\'s RunStore over its kept state)', () => {
  it('each save replaces the run\'s own autosave, is offered on reload, and is what a rollback returns to', async () => {
    const { listings, autosaves, archive } = studio();
    const run = fakeRun(2);
    const store = new StudioRunStore(run, autosaves, listings, () => undefined, () => true);
    expect(await store.newestCheckpoint()).toBeUndefined();
    await store.saveCheckpoint('iter-000002.flowtune', new Uint8Array([1, 2, 3]));
    Object.assign(run, { iteration: 4, envSteps: 256 });
    await store.saveCheckpoint('iter-000004.flowtune', new Uint8Array([4, 5]));
    expect(store.savedIteration).toBe(4);
    const newest = await store.newestCheckpoint();
    expect(newest?.iteration).toBe(4);
    expect(newest?.files).toMatchObject({ kind: 'flowtune', bytes: new Uint8Array([4, 5]) });
    const offered = await autosaves.offered();
    expect(offered.summary).toMatchObject({ iteration: 4, envSteps: 256, task: run.config.task, records: 2 });
    expect(offered.listing.savedIteration).toBe(4);
    expect((await archive.listings()).map((listing) => listing.savedIteration)).toEqual([4]);
  });

  it('a run at iteration 0 saves nothing; a run without a save says so in one sentence', async () => {
    const { listings, autosaves } = studio();
    const store = new StudioRunStore(fakeRun(0), autosaves, listings, () => undefined, () => true);
    await store.saveCheckpoint('iter-000000.flowtune', new Uint8Array([9]));
    await expect(autosaves.offered()).rejects.toThrow('there is no autosaved run to resume');
    await expect(autosaves.ofRun('studio-1')).rejects.toThrow(TrainingError);
    await expect(autosaves.ofRun('studio-1')).rejects.toThrow('run studio-1 keeps no saved weights to resume from');
  });

  it('a save still in flight when the run was reset leaves the Runs list alone', async () => {
    const { listings, autosaves, events } = studio();
    let current = true;
    const store = new StudioRunStore(fakeRun(3), autosaves, listings, () => undefined, () => current);
    listings.open(fakeRun(3));
    current = false;
    await store.saveCheckpoint('iter-000003.flowtune', new Uint8Array([7]));
    // The save itself is kept (a reload may still offer it), but the entry, its counters and the Runs list are not touched.
    expect(store.savedIteration).toBeUndefined();
    expect(listings.listing?.savedIteration).toBeUndefined();
    expect(events.filter((event) => event.type === 'runs')).toEqual([]);
    current = true;
    await store.saveCheckpoint('iter-000003.flowtune', new Uint8Array([7]));
    expect(listings.listing?.savedIteration).toBe(3);
    expect(events.filter((event) => event.type === 'runs')).toHaveLength(1);
  });
});
