import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import type { QueueStatus, TrainerEvent } from '../../protocol/trainer-api';
import type { StoredQueue } from './queue-store';
import type { RunLabel } from './run-listings';
import type { LoopEnd, QueueSession } from './queue-session';
import { RunQueue, type QueuePorts } from './run-queue';

// The kept state stands in as two variables: the stored queue and the autosaved run's id.
let storedQueue: StoredQueue | null = null;
let savedRunId: string | undefined;
const ports: QueuePorts = {
  store: {
    read: async () => storedQueue,
    write: async (queue) => {
      storedQueue = structuredClone(queue);
    },
  },
  savedRunId: async () => savedRunId,
};

/** The parts of a session the queue drives, recording what it was asked to do. */
class SessionStub implements QueueSession {
  phase = 'idle';
  config = defaultConfig();
  listings = { nextLabel: undefined as RunLabel | undefined };
  models = {
    selected: undefined,
    prepareRun: (_files: unknown, config: { seed: number }) => {
      this.calls.push(`prepareRun seed ${config.seed}`);
    },
  };
  onLoopEnd?: (outcome: LoopEnd) => void;
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
  async pause() {
    this.calls.push('pause');
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
  const queue = new RunQueue(session, (event) => events.push(event), ports);
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

describe('RunQueue from its start', () => {
  beforeEach(() => {
    storedQueue = null;
    savedRunId = undefined;
  });

  /** A queue of the preset's two variants at one seed, started over an idle session. */
  async function started() {
    const session = new SessionStub(false);
    const events: TrainerEvent[] = [];
    const queue = new RunQueue(session, (event) => events.push(event), ports);
    const status = await queue.start({ preset: 'reinflow-ablation', variants: ['ppo:clip_tight', 'ppo:clip_loose'], seeds: [3] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    return { session, queue, status, events };
  }

  it('keeps the queue, labels and trains the first item, and starts the next when a run ends', async () => {
    const { session, status } = await started();
    expect(status.items.map((item) => `${item.variant}/${item.seed}`)).toEqual(['ppo:clip_tight/3', 'ppo:clip_loose/3']);
    expect(storedQueue?.status.items[0]).toMatchObject({ state: 'running', runId: session.currentRunId });
    expect(session.listings.nextLabel).toMatchObject({ origin: 'queue', group: status.id, seed: 3 });
    session.onLoopEnd?.({ kind: 'done', runId: session.currentRunId });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(storedQueue?.status.items.map((item) => item.state)).toEqual(['done', 'running']);
    expect(session.calls).toEqual(['reset', 'prepareRun seed 3', 'train', 'reset', 'prepareRun seed 3', 'train']);
    expect(storedQueue?.status.currentIndex).toBe(1);
  });

  it('fails an item whose run failed and goes on; a pause waits for the user', async () => {
    const { session } = await started();
    session.onLoopEnd?.({ kind: 'paused', runId: session.currentRunId });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(storedQueue?.status.currentIndex).toBe(0);
    session.onLoopEnd?.({ kind: 'error', message: 'NaN in the update', runId: session.currentRunId });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(storedQueue?.status.items[0]).toMatchObject({ state: 'failed', error: 'NaN in the update' });
    expect(storedQueue?.status.items[1].state).toBe('running');
  });

  it('is cancelled by a Reset of its run, and by cancel(), which pauses the session', async () => {
    const reset = await started();
    reset.session.onLoopEnd?.({ kind: 'reset', runId: reset.session.currentRunId });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(storedQueue?.status).toMatchObject({ phase: 'cancelled', currentIndex: undefined });
    expect(storedQueue?.status.items[0]).toMatchObject({ state: 'failed', error: 'the run was reset, which cancels the queue' });

    storedQueue = null;
    const cancelled = await started();
    await cancelled.queue.cancel();
    expect(cancelled.session.calls.at(-1)).toBe('pause');
    const kept = storedQueue as StoredQueue | null;
    expect(kept?.status.phase).toBe('cancelled');
    expect(kept?.status.items[0]).toMatchObject({ state: 'failed', error: 'cancelled with the queue' });
  });

  it('refuses to start while a run holds the trainer or another queue runs', async () => {
    const { queue } = await started();
    await expect(queue.start({ preset: 'reinflow-ablation', variants: ['ppo:clip_tight'], seeds: [0] })).rejects.toThrow('a queue is already running: cancel it before starting another');
    storedQueue = null;
    const session = new SessionStub(false);
    session.phase = 'paused';
    const idle = new RunQueue(session, () => undefined, ports);
    await expect(idle.start({ preset: 'reinflow-ablation', variants: ['ppo:clip_tight'], seeds: [0] })).rejects.toThrow('a run is paused: stop or reset it before starting a queue');
  });
});
