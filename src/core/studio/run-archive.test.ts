import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import { deriveSizes } from '../config/derive';
import type { MetricRecord } from '../metrics/metric-keys';
import type { ImportedSweep } from '../../protocol/runs-api';
import { MemoryStudioStores } from './memory-stores';
import { OFFER_KEY, RunArchive, runProgress, type StoredListing } from './run-archive';

const db = new MemoryStudioStores();
const archive = new RunArchive(db);

function listing(id: string, updatedAt: number, name = id): StoredListing {
  return { id, name, origin: 'studio', task: 'reach', iterations: 1, envSteps: 64, createdAt: 0, updatedAt, finished: false };
}

const records: MetricRecord[] = [{ 'progress/iteration': 1, 'progress/env_steps': 64 }];

describe('runProgress', () => {
  it('reads iterations, env steps and the newest eval figures from the metrics', () => {
    const config = defaultConfig();
    const progress = runProgress(config, [
      { 'progress/iteration': 1, 'progress/env_steps': 100, 'eval/success_rate': 0.25, 'eval/episode_return': 3 },
      { 'progress/iteration': 2, 'progress/env_steps': 200 },
    ]);
    expect(progress).toEqual({ iterations: 2, envSteps: 200, finalSuccess: 0.25, finalReturn: 3, finished: false });
    const last = deriveSizes(config).iterations;
    expect(runProgress(config, [{ 'progress/iteration': last, 'progress/env_steps': 1 }]).finished).toBe(true);
    expect(runProgress(config, [])).toMatchObject({ iterations: 0, envSteps: 0, finished: false });
  });
});

describe('RunArchive', () => {
  beforeEach(() => db.clear());

  it('lists kept runs newest first, name breaking ties, and reads their details in the order asked', async () => {
    await archive.keepRuns([
      { listing: listing('a', 5, 'beta'), config: defaultConfig(), records },
      { listing: listing('b', 9), config: defaultConfig(), records },
      { listing: listing('c', 5, 'alpha'), config: defaultConfig(), records },
    ]);
    expect((await archive.listings()).map((entry) => entry.id)).toEqual(['b', 'c', 'a']);
    const details = await archive.details(['c', 'a'], 'a');
    expect(details.map((detail) => [detail.listing.id, detail.listing.current])).toEqual([['c', false], ['a', true]]);
    expect(details[0].records).toEqual(records);
    await expect(archive.details(['gone'], undefined)).rejects.toThrow('run gone is not kept in this browser (it was deleted, or the list is stale: reload)');
  });

  it('forgets runs with their saves and an offer of one of them, and refuses the current run at once', async () => {
    await archive.keepRuns([{ listing: listing('a', 1), config: defaultConfig(), records }, { listing: listing('b', 2), config: defaultConfig(), records }]);
    db.map('run-saves').set('a', { runId: 'a' });
    db.map('autosave').set(OFFER_KEY, { runId: 'a' });
    expect(() => archive.forgetRuns(['a'], 'a')).toThrow('the current run cannot be deleted: reset it first');
    await archive.forgetRuns(['a'], 'b');
    expect((await archive.listings()).map((entry) => entry.id)).toEqual(['b']);
    expect(db.map('run-saves').has('a')).toBe(false);
    expect(db.map('run-data').has('a')).toBe(false);
    expect(db.map('autosave').has(OFFER_KEY)).toBe(false);
  });

  it('keeps imported sweeps newest first and forgets one with its runs', async () => {
    const sweep = (id: string, importedAt: number, runIds: string[]) => ({ id, name: id, summary: {}, runIds, importedAt }) as unknown as ImportedSweep;
    await archive.keepRuns([{ listing: listing('r1', 1), config: defaultConfig(), records }, { listing: listing('r2', 2), config: defaultConfig(), records }]);
    await archive.keepSweeps([sweep('old', 1, ['r1']), sweep('new', 2, [])]);
    expect((await archive.sweeps()).map((entry) => entry.id)).toEqual(['new', 'old']);
    await archive.forgetSweep('old');
    expect((await archive.sweeps()).map((entry) => entry.id)).toEqual(['new']);
    expect((await archive.listings()).map((entry) => entry.id)).toEqual(['r2']);
    await expect(archive.forgetSweep('old')).rejects.toThrow('sweep old is not kept in this browser');
  });
});
