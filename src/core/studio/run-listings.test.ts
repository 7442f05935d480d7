import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import type { MetricRecord } from '../metrics/metric-keys';
import type { TrainerEvent } from '../../protocol/trainer-api';
import { MemoryStudioStores } from './memory-stores';
import { RunArchive } from './run-archive';
import { RunListings, type ListedRun } from './run-listings';
import { SavedRunOffers } from './saved-run-offers';
import { SavedRuns, type SavedRun } from './saved-runs';

const db = new MemoryStudioStores();
const archive = new RunArchive(db);
const saved = new SavedRuns(db);

function run(iteration: number): ListedRun {
  const history: MetricRecord[] = Array.from({ length: iteration }, (_, index) => ({ 'progress/iteration': index + 1, 'progress/env_steps': (index + 1) * 64 }));
  return { config: { ...defaultConfig(), task: 'reach', seed: 4 }, history, iteration };
}

function studio() {
  const events: TrainerEvent[] = [];
  const emit = (event: TrainerEvent) => events.push(event);
  const listings = new RunListings(emit, archive);
  const offers = new SavedRunOffers(emit, listings, saved, archive);
  const notices = () => events.flatMap((event) => (event.type === 'notice' ? [event.message] : []));
  return { events, listings, offers, notices };
}

describe('RunListings', () => {
  beforeEach(() => db.clear());

  it('names a run by task and time, or by the queue\'s label, keeps it and announces the list', async () => {
    const { listings, events } = studio();
    listings.open(run(0));
    expect(listings.listing).toMatchObject({ origin: 'studio', task: 'reach', seed: 4, iterations: 0 });
    expect(listings.listing?.name).toMatch(/^reach \d\d:\d\d$/);
    listings.nextLabel = { origin: 'queue', name: 'lr:high · seed 1', group: 'queue-1', variant: 'lr:high', seed: 1 };
    listings.open(run(0));
    expect(listings.listing).toMatchObject({ origin: 'queue', name: 'lr:high · seed 1', group: 'queue-1', seed: 1 });
    expect(listings.nextLabel).toBeUndefined();
    await listings.keep(run(3));
    const all = await listings.all();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: listings.currentId, iterations: 3, envSteps: 192, current: true });
    expect(events.at(-1)).toMatchObject({ type: 'runs' });
  });

  it('drops a released run that never finished an iteration, and keeps one that did', async () => {
    const { listings } = studio();
    listings.open(run(0));
    await listings.keep(run(0));
    await listings.release(run(0));
    expect(await archive.listings()).toEqual([]);
    listings.open(run(0));
    await listings.keep(run(2));
    const released = await listings.release(run(2));
    expect(listings.currentId).toBeUndefined();
    expect((await archive.listings()).map((entry) => entry.id)).toEqual([released?.id]);
  });

  it('reports a failed write as an error event instead of throwing', async () => {
    const events: TrainerEvent[] = [];
    const broken = new RunArchive({ transact: async () => Promise.reject(new Error('quota full')) });
    const listings = new RunListings((event) => events.push(event), broken);
    await listings.keep(run(1));
    expect(events).toContainEqual({ type: 'error', name: 'RunListError', message: 'the run could not be kept in the Runs list: quota full' });
  });
});

describe('SavedRunOffers', () => {
  beforeEach(() => db.clear());

  const save = (runId: string, iteration: number): SavedRun => ({
    summary: { name: runId, task: 'reach', iteration, envSteps: iteration * 64, savedAt: iteration, records: iteration },
    runId, listing: { id: runId, name: `run ${runId}`, origin: 'studio', task: 'reach', iterations: iteration, envSteps: 0, createdAt: 0, updatedAt: 0, finished: false, savedIteration: iteration },
    config: defaultConfig(), checkpoint: new Uint8Array([iteration]), history: [],
  });

  it('never offers the open run, and moving the offer says where the previous one is kept', async () => {
    const { listings, offers, notices } = studio();
    await saved.write(save('a', 7));
    expect(await offers.offered()).toMatchObject({ name: 'run a', iteration: 7 });
    listings.listing = save('a', 7).listing;
    expect(await offers.offered()).toBeNull();
    listings.listing = undefined;
    await offers.moveTo(undefined);
    expect(notices()).toEqual(['the saved run run a from iteration 7 is kept in the Runs list with its weights: resume it there']);
    expect(await offers.offered()).toBeNull();
  });

  it('discards the offered run with its save, or keeps it and withdraws the offer', async () => {
    const { offers, notices } = studio();
    await saved.write(save('a', 3));
    await offers.keep();
    expect(await saved.offer()).toBeNull();
    expect(await saved.read('a')).not.toBeNull();
    await saved.write(save('b', 5));
    await offers.discard();
    expect(await saved.read('b')).toBeNull();
    expect(notices().at(-1)).toBe('the saved run run b from iteration 5 was deleted');
  });

  it('keeps a reset run out of the offer and says whether it can be resumed', async () => {
    const { offers, notices } = studio();
    await saved.write(save('a', 4));
    await offers.keepOnReset(save('a', 4).listing, true);
    expect(await saved.offer()).toBeNull();
    await offers.keepOnReset({ ...save('b', 0).listing, savedIteration: undefined }, true);
    expect(notices()).toEqual([
      'run a is kept in the Runs list with its weights from iteration 4: resume it there',
      'run b is kept in the Runs list with its metrics; it saved no weights, so it cannot be resumed',
    ]);
  });
});
