import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import type { DroppedFile } from '../../protocol/runs-api';
import { importFolders } from './folder-import';
import { MemoryStudioStores } from './memory-stores';
import { RunArchive } from './run-archive';
import { TaskStore } from './task-store';

const metrics = (...success: number[]) =>
  success.map((rate, index) => JSON.stringify({ 'progress/iteration': index + 1, 'progress/env_steps': (index + 1) * 64, 'eval/success_rate': rate })).join('\n') + '\n';

describe('importFolders', () => {
  it('keeps a dropped run folder as an imported run, ids from its path so a re-import replaces it', async () => {
    const archive = new RunArchive(new MemoryStudioStores());
    const files: DroppedFile[] = [
      { path: 'runs/reach-a/metrics.jsonl', text: metrics(0.25, 0.5) },
      { path: 'runs/reach-a/config.json', text: JSON.stringify({ ...defaultConfig(), task: 'reach', seed: 9 }) },
    ];
    const result = await importFolders(archive, files, 1234);
    expect(result.runs).toEqual([expect.objectContaining({
      id: 'import:runs/reach-a', name: 'reach-a', origin: 'imported', task: 'reach', seed: 9, iterations: 2, envSteps: 128, finalSuccess: 0.5, createdAt: 1234, current: false,
    })]);
    await importFolders(archive, files, 5678);
    const kept = await archive.listings();
    expect(kept.map((listing) => [listing.id, listing.updatedAt])).toEqual([['import:runs/reach-a', 5678]]);
    expect((await archive.details(['import:runs/reach-a'], undefined))[0].records).toHaveLength(2);
  });
});

describe('MemoryStudioStores and TaskStore', () => {
  it('keep the added tasks oldest first, copies in and out, and refuse a store outside the transaction', async () => {
    const db = new MemoryStudioStores();
    const tasks = new TaskStore(db);
    const folder = { files: [] } as unknown as Parameters<TaskStore['keep']>[0]['folder'];
    await tasks.keep({ name: 'b', folder, hash: 'h2', addedAt: 2 });
    await tasks.keep({ name: 'a', folder, hash: 'h1', addedAt: 1 });
    const all = await tasks.all();
    expect(all.map((task) => task.name)).toEqual(['a', 'b']);
    all[0].hash = 'changed';
    expect((await tasks.all())[0].hash).toBe('h1');
    await tasks.forget('a');
    expect((await tasks.all()).map((task) => task.name)).toEqual(['b']);
    await expect(db.transact(['tasks'], 'readonly', (store) => store('queue').get('active'))).rejects.toThrow('store queue is not part of this transaction (tasks)');
  });
});
