import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import type { MetricRecord } from '../metrics/metric-keys';
import { MemoryStudioStores } from './memory-stores';
import { RunArchive, type StoredListing } from './run-archive';
import { SavedRuns, type SavedRun } from './saved-runs';

const db = new MemoryStudioStores();
const saved = new SavedRuns(db);
const archive = new RunArchive(db);
const writeRunSave = (save: SavedRun) => saved.write(save);
const readRunSave = (runId: string) => saved.read(runId);
const readOffer = () => saved.offer();
const readSavedRun = () => saved.offered();
const moveOffer = (runId: string | undefined) => saved.moveOffer(runId);
const withdrawOffer = (runId: string) => saved.withdrawOffer(runId);
const forgetRuns = (ids: string[], current: string | undefined) => archive.forgetRuns(ids, current);
const keptListings = () => archive.listings();
const memoryStore = (name: Parameters<typeof db.map>[0]) => db.map(name);
const clearMemoryDb = () => db.clear();

const history = (iterations: number): MetricRecord[] =>
  Array.from({ length: iterations }, (_, index) => ({ 'progress/iteration': index + 1, 'progress/env_steps': (index + 1) * 64 }));

function listing(id: string, iterations: number): StoredListing {
  return { id, name: `pick-cube ${id}`, origin: 'studio', task: 'pick-cube', iterations, envSteps: iterations * 64, createdAt: 1, updatedAt: 2, finished: false };
}

/** A save whose checkpoint bytes say which run and iteration they came from. */
function save(id: string, iteration: number): SavedRun {
  return {
    summary: { name: `pick-cube ${id}`, task: 'pick-cube', iteration, envSteps: iteration * 64, savedAt: 1000 + iteration, records: iteration },
    runId: id, listing: { ...listing(id, iteration), savedIteration: iteration }, config: defaultConfig(),
    checkpoint: new TextEncoder().encode(`${id}@${iteration}`), history: history(iteration),
  };
}

const bytesOf = (saved: SavedRun | null) => (saved ? new TextDecoder().decode(saved.checkpoint) : undefined);

describe('per-run saves', () => {
  beforeEach(() => clearMemoryDb());

  it('keep every run\'s newest save: another run\'s autosave replaces only the offer, never the save', async () => {
    await writeRunSave(save('a', 230));
    await writeRunSave(save('b', 10));
    expect(bytesOf(await readRunSave('a'))).toBe('a@230');
    expect(bytesOf(await readRunSave('b'))).toBe('b@10');
    expect((await readOffer())?.runId).toBe('b');
    expect(bytesOf(await readSavedRun())).toBe('b@10');
    // A run's later save replaces its own.
    await writeRunSave(save('a', 235));
    expect(bytesOf(await readRunSave('a'))).toBe('a@235');
    const listed = await keptListings();
    expect(Object.fromEntries(listed.map((entry) => [entry.id, entry.savedIteration]))).toEqual({ a: 235, b: 10 });
  });

  it('move the offer: to no run (a new run has not saved yet), reporting the run it was on; that run stays saved', async () => {
    await writeRunSave(save('a', 230));
    const before = await moveOffer(undefined);
    expect(before).toEqual({ runId: 'a', name: 'pick-cube a', summary: save('a', 230).summary });
    expect(await readOffer()).toBeNull();
    expect(bytesOf(await readRunSave('a'))).toBe('a@230');
    // Nothing offered: nothing to report.
    expect(await moveOffer(undefined)).toBeNull();
  });

  it('move the offer to a resumed run, reporting another run offered before but not the same one', async () => {
    await writeRunSave(save('a', 230));
    await writeRunSave(save('b', 10));
    expect((await moveOffer('a'))?.runId).toBe('b');
    expect((await readOffer())?.summary.iteration).toBe(230);
    expect(await moveOffer('a')).toBeNull();
    // A run with no save cannot be offered: the offer goes.
    expect((await moveOffer('never-saved'))?.runId).toBe('a');
    expect(await readOffer()).toBeNull();
  });

  it('withdraw the offer only when it names the run', async () => {
    await writeRunSave(save('a', 5));
    await withdrawOffer('b');
    expect((await readOffer())?.runId).toBe('a');
    await withdrawOffer('a');
    expect(await readOffer()).toBeNull();
    expect(bytesOf(await readRunSave('a'))).toBe('a@5');
  });

  it('go with their run when it is deleted, and so does the offer of it; other runs keep theirs', async () => {
    await writeRunSave(save('a', 5));
    await writeRunSave(save('b', 7));
    await forgetRuns(['b'], undefined);
    expect(await readRunSave('b')).toBeNull();
    expect(await readOffer()).toBeNull();
    expect(bytesOf(await readRunSave('a'))).toBe('a@5');
    await writeRunSave(save('b', 8));
    await forgetRuns(['a'], 'b');
    expect(await readRunSave('a')).toBeNull();
    expect((await readOffer())?.runId).toBe('b');
    expect(() => forgetRuns(['b'], 'b')).toThrow('the current run cannot be deleted: reset it first');
  });
});

describe('an autosave from before per-run saves', () => {
  beforeEach(() => clearMemoryDb());

  it('is moved under its run\'s id before a new run\'s autosave replaces the offer', async () => {
    const old = save('studio-1', 230);
    const { listing: oldListing, ...rest } = old;
    memoryStore('autosave').set('latest', { ...rest, listing: { ...oldListing, savedIteration: undefined } });
    memoryStore('run-listings').set('studio-1', { ...oldListing, savedIteration: undefined, iterations: 233 });
    await writeRunSave(save('b', 10));
    expect(bytesOf(await readRunSave('studio-1'))).toBe('studio-1@230');
    expect((await readOffer())?.runId).toBe('b');
    // The kept listing stays (its metrics went past the save), now naming the saved iteration.
    const kept = (await keptListings()).find((entry) => entry.id === 'studio-1');
    expect(kept).toMatchObject({ iterations: 233, savedIteration: 230 });
  });

  it('from before the Runs list gets an entry with its config and metrics, and stays offered', async () => {
    const old = save('x', 12);
    memoryStore('autosave').set('latest', { summary: old.summary, config: old.config, checkpoint: old.checkpoint, history: old.history });
    const offer = await readOffer();
    expect(offer?.runId).toBe('studio-1012-saved');
    expect(offer?.summary.iteration).toBe(12);
    expect(bytesOf(await readSavedRun())).toBe('x@12');
    const [entry] = await keptListings();
    expect(entry).toMatchObject({ id: 'studio-1012-saved', origin: 'studio', task: 'pick-cube', iterations: 12, envSteps: 12 * 64, savedIteration: 12 });
    expect(memoryStore('run-data').get('studio-1012-saved')).toEqual({ config: old.config, records: old.history });
  });
});
