import { describe, expect, it } from 'vitest';
import type { RunListing } from '../../protocol/trainer-api';
import { filterRuns, nextSort, sortRunsBy } from './run-table-order';

function listing(id: string, fields: Partial<RunListing>): RunListing {
  return { id, name: id, origin: 'imported', task: 'reach', iterations: 10, envSteps: 640, createdAt: 1, updatedAt: 1, current: false, finished: true, ...fields };
}

const runs = [
  listing('baseline-s0', { finalSuccess: 0.5, createdAt: 3, variant: 'baseline' }),
  listing('lr-high-s0', { finalSuccess: 0.8, createdAt: 2, variant: 'lr:high', iterations: 30 }),
  listing('never-evaluated', { createdAt: 4 }),
  listing('hopper-run', { task: 'hopper', finalReturn: 120, createdAt: 1 }),
];
const hasSuccess = (task: string) => task !== 'hopper';
const ids = (list: readonly RunListing[]) => list.map((run) => run.id);

describe('sortRunsBy', () => {
  it('keeps the default order with no sort: newest first', () => {
    expect(ids(sortRunsBy(runs, undefined, hasSuccess))).toEqual(['never-evaluated', 'baseline-s0', 'lr-high-s0', 'hopper-run']);
  });

  it('sorts by the eval column in both directions, runs that never evaluated last', () => {
    // success 0.5 and 0.8; hopper has no success rule, so its return 120 ranks it.
    expect(ids(sortRunsBy(runs, { column: 'eval', descending: true }, hasSuccess))).toEqual(['hopper-run', 'lr-high-s0', 'baseline-s0', 'never-evaluated']);
    expect(ids(sortRunsBy(runs, { column: 'eval', descending: false }, hasSuccess))).toEqual(['baseline-s0', 'lr-high-s0', 'hopper-run', 'never-evaluated']);
  });

  it('sorts numbers as numbers and names ignoring case, ties in the default order', () => {
    expect(ids(sortRunsBy(runs, { column: 'iterations', descending: true }, hasSuccess))[0]).toBe('lr-high-s0');
    expect(ids(sortRunsBy(runs, { column: 'task', descending: false }, hasSuccess))).toEqual(['hopper-run', 'never-evaluated', 'baseline-s0', 'lr-high-s0']);
  });
});

describe('nextSort', () => {
  it('cycles ascending, descending, default', () => {
    const first = nextSort(undefined, 'eval');
    expect(first).toEqual({ column: 'eval', descending: false });
    expect(nextSort(first, 'eval')).toEqual({ column: 'eval', descending: true });
    expect(nextSort({ column: 'eval', descending: true }, 'eval')).toBeUndefined();
    expect(nextSort({ column: 'eval', descending: true }, 'name')).toEqual({ column: 'name', descending: false });
  });
});

describe('filterRuns', () => {
  it('keeps runs matching every word in name, task, variant or group', () => {
    const groupOf = (run: RunListing) => (run.variant ? 'sweep ablation' : undefined);
    expect(ids(filterRuns(runs, 'lr:HIGH', groupOf))).toEqual(['lr-high-s0']);
    expect(ids(filterRuns(runs, 'ablation s0', groupOf))).toEqual(['baseline-s0', 'lr-high-s0']);
    expect(ids(filterRuns(runs, 'hopper', groupOf))).toEqual(['hopper-run']);
    expect(ids(filterRuns(runs, '  ', groupOf))).toHaveLength(4);
  });
});
