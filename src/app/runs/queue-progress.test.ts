import { describe, expect, it } from 'vitest';
import type { QueueItem, QueueStatus } from '../../protocol/trainer-api';
import { queueProgressText } from './queue-progress';

const item = (variant: string, seed: number, state: QueueItem['state']): QueueItem => ({ variant, seed, state });

function queue(phase: QueueStatus['phase'], items: QueueItem[], currentIndex?: number): QueueStatus {
  return { id: 'q1', preset: 'reinflow-ablation', task: 'pick-cube', phase, items, currentIndex };
}

describe('queueProgressText', () => {
  const items = [item('baseline', 0, 'done'), item('lr:low', 1, 'running'), item('lr:low', 2, 'pending')];

  it('names the position, variant and seed of the running item', () => {
    expect(queueProgressText(queue('running', items, 1))).toBe('queue 2 / 3 · lr:low seed 1');
    // Without currentIndex the running item is found by its state.
    expect(queueProgressText(queue('running', items))).toBe('queue 2 / 3 · lr:low seed 1');
  });

  it('counts finished and failed items once the queue ended', () => {
    const ended = [item('baseline', 0, 'done'), item('lr:low', 0, 'failed'), item('lr:high', 0, 'done')];
    expect(queueProgressText(queue('done', ended))).toBe('queue done: 2 finished, 1 failed');
    expect(queueProgressText(queue('cancelled', [item('baseline', 0, 'done'), item('lr:low', 0, 'pending')]))).toBe('queue cancelled: 1 finished, 0 failed');
  });

  it('falls back to a count between items', () => {
    expect(queueProgressText(queue('running', [item('baseline', 0, 'done'), item('lr:low', 0, 'pending')]))).toBe('queue 1 / 2');
  });
});
