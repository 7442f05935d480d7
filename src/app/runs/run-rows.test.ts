import { describe, expect, it } from 'vitest';
import type { ImportedSweep, QueueStatus, RunListing } from '../../protocol/trainer-api';
import { formatEvalResult, formatSuccess, formatUpdated, groupLabel, originBadge, resumeBlocker, runGroups, sortRunRows } from './run-rows';

function listing(id: string, fields: Partial<RunListing> = {}): RunListing {
  return { id, name: id, origin: 'studio', task: 'pick-cube', iterations: 1, envSteps: 64, createdAt: 0, updatedAt: 0, current: false, finished: true, ...fields };
}

const sweep: ImportedSweep = {
  id: 'sweep-a', name: 'ablation-0112', runIds: ['s0', 's1'], importedAt: 5,
  summary: { preset: 'reinflow-ablation', task: 'pick-cube', evalEpisodes: 20, evalSeed: 1000, finishedRuns: 2, plannedRuns: 2, variants: [] },
};
const queue: QueueStatus = { id: 'queue-7', preset: 'reinflow-ablation', task: 'pick-cube', phase: 'running', items: [] };

describe('sortRunRows', () => {
  it('puts the current run first, then the newest', () => {
    const runs = [listing('old', { createdAt: 1 }), listing('live', { createdAt: 2, current: true }), listing('new', { createdAt: 9 }), listing('new-b', { createdAt: 9 })];
    expect(sortRunRows(runs).map((run) => run.id)).toEqual(['live', 'new', 'new-b', 'old']);
    expect(runs[0].id).toBe('old');
  });
});

describe('run labels', () => {
  it('badges the current run as current and others by origin', () => {
    expect(originBadge(listing('a', { current: true, origin: 'queue' }))).toBe('current');
    expect(originBadge(listing('a', { origin: 'imported' }))).toBe('imported');
  });

  it('names the sweep or queue a run belongs to', () => {
    expect(groupLabel(listing('s0', { origin: 'imported', group: 'sweep-a' }), [sweep], null)).toBe('sweep ablation-0112');
    expect(groupLabel(listing('q0', { origin: 'queue', group: 'queue-7' }), [], queue)).toBe('queue reinflow-ablation');
    expect(groupLabel(listing('q0', { origin: 'queue', group: 'queue-3' }), [], queue)).toBe('queue queue-3');
    expect(groupLabel(listing('a'), [sweep], queue)).toBeUndefined();
  });

  it('gathers the runs of each sweep and queue', () => {
    const runs = [
      listing('q0', { origin: 'queue', group: 'queue-7' }), listing('s0', { origin: 'imported', group: 'sweep-a' }),
      listing('solo'), listing('s1', { origin: 'imported', group: 'sweep-a' }),
    ];
    expect(runGroups(runs, [sweep], queue)).toEqual([
      { id: 'queue-7', label: 'queue reinflow-ablation', runIds: ['q0'] },
      { id: 'sweep-a', label: 'sweep ablation-0112', runIds: ['s0', 's1'] },
    ]);
  });
});

describe('run formatting', () => {
  it('shows success as a percent, or a dash when the run never evaluated', () => {
    expect(formatSuccess(0.625)).toBe('62.5%');
    expect(formatSuccess(1)).toBe('100.0%');
    expect(formatSuccess(undefined)).toBe('–');
    expect(formatSuccess(NaN)).toBe('–');
  });

  it('shows the eval return instead for a task without a success rule', () => {
    expect(formatEvalResult({ finalSuccess: 0, finalReturn: -123.456 }, false)).toBe('return -123.5');
    expect(formatEvalResult({ finalSuccess: 0.5, finalReturn: 3 }, true)).toBe('50.0%');
    expect(formatEvalResult({}, false)).toBe('–');
  });

  it('shows the clock for today and the date for another day', () => {
    const now = new Date(2024, 10, 23, 18, 0).getTime();
    expect(formatUpdated(new Date(2024, 10, 23, 14, 2).getTime(), now)).toBe('14:02');
    expect(formatUpdated(new Date(2024, 0, 5, 9, 30).getTime(), now)).toBe('2024-01-05 09:30');
  });
});

describe('resumeBlocker', () => {
  it('lets a kept run resume only when no run exists and no demos stage runs, and says why not', () => {
    expect(resumeBlocker('idle', undefined)).toBeUndefined();
    expect(resumeBlocker('idle', 'done')).toBeUndefined();
    for (const phase of ['running', 'paused', 'stopped', 'done', 'error'] as const) expect(resumeBlocker(phase, undefined)).toBe('A run exists: Reset it first (it stays in this list), then resume another');
    expect(resumeBlocker('idle', 'running')).toBe('A New-from-demos stage is running: pause it or let it finish');
  });
});
