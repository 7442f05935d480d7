import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../../src/core/config';
import type { QueueStatus, TrainerEvent } from '../../src/protocol/trainer-api';
import type { StoredQueue } from './queue-store';
import type { LoopOutcome } from './loop-control';
import type { TrainingSession } from './training-session';
import { RunQueue } from './run-queue';

// IndexedDB stands in as two variables: the stored queue and the autosaved run's id.
let storedQueue: StoredQueue | null = null;
let savedRunId: string | undefined;
vi.mock('./queue-store', () => ({
  readQueue: async () => storedQueue,
  writeQueue: async (queue: StoredQueue) => {
    storedQueue = structuredClone(queue);
  },
}));
vi.mock('./autosave-store', () => ({ readSavedRun: async () => (savedRunId === undefined ? null : { runId: savedRunId }) }));

/** The parts of a TrainingSession the queue drives, recording what it was asked to do. */
class SessionStub {
  phase = 'idle';
  config = defaultConfig();
  listings = { nextLabel: undefined as unknown };
  models = {
    selected: undefined,
    prepareRun: (_files: unknown, config: { seed: number }) => {
      this.calls.push(`prepareRun seed ${config.seed}`);
    },
  };
  onLoopEnd?: (outcome: LoopOutcome) => void;
  run?: { done: boolean };
  currentRunId?: string;
  calls: string[] = [];
  /** What restoreSaved restores: the autosaved run, finished or not. */
  constructor(private readonly savedRunDone: boolean) {}
  async resume() {
    this.calls.push('restoreSaved');
    this.run = { done: this.savedRunDone };
    this.currentRunId = 'run-a';
  }
  async train() {
    this.calls.push('train');
    if (this.run?.done) return;
    this.currentRunId ??= `run-${this.calls.length}`;
  }
  async reset() {
    this.calls.push('reset');
    this.run = undefined;
    this.currentRunId = undefined;
  }
  async loopSettled() {}
}

function queueOfTwo(): StoredQueue {
  const status: QueueStatus = {
    id: 'queue-1', preset: 'reinflow-ablation', task: 'pick-cube', phase: 'running', currentIndex: 0,
    items: [
      { variant: 'ppo:clip_tight', seed: 0, state: 'running', runId: 'run-a' },
      { variant: 'lr:high', seed: 0, state: 'pending' },
    ],
  };
  return { status, configs: [{ ...defaultConfig(), seed: 0 }, { ...defaultConfig(), seed: 7 }] };
}

/** Resumes the stored queue; what the session was asked must be done by the time resume() returns. */
async function resumeWith(savedRunDone: boolean): Promise<{ session: SessionStub; events: TrainerEvent[] }> {
  const session = new SessionStub(savedRunDone);
  const events: TrainerEvent[] = [];
  const queue = new RunQueue(session as unknown as TrainingSession, (event) => events.push(event));
  await queue.resume();
  return { session, events };
}

describe('RunQueue.resume after a reload', () => {
  beforeEach(() => {
    storedQueue = queueOfTwo();
    savedRunId = 'run-a';
  });

  it('goes on training the interrupted run from its autosave', async () => {
    const { session } = await resumeWith(false);
    expect(session.calls).toEqual(['restoreSaved', 'train']);
    expect(storedQueue?.status.items.map((item) => item.state)).toEqual(['running', 'pending']);
  });

  it('ends an item whose run had finished before the queue heard of it, and starts the next', async () => {
    // The reload fell between the run's final autosave and its end reaching the queue: train() starts no loop.
    const { session } = await resumeWith(true);
    expect(session.calls).toEqual(['restoreSaved', 'reset', 'prepareRun seed 7', 'train']);
    expect(storedQueue?.status.items.map((item) => item.state)).toEqual(['done', 'running']);
    expect(storedQueue?.status.currentIndex).toBe(1);
  });

  it('starts the interrupted item again, before returning, when its run had not autosaved', async () => {
    // The autosave is an earlier run's: the page reads the resume offer right after resume() returns,
    // so the item's new run must already hold the trainer (and so the offer) by then.
    savedRunId = 'run-before';
    const { session } = await resumeWith(false);
    expect(session.calls).toEqual(['reset', 'prepareRun seed 0', 'train']);
    expect(storedQueue?.status.items.map((item) => item.state)).toEqual(['running', 'pending']);
    expect(storedQueue?.status.items[0].runId).toBe(session.currentRunId);
  });
});
