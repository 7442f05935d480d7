/**
 * The studio's queue (DESIGN.md §11 "In the studio"): a sweep preset's variants × seeds, trained one
 * after another in the trainer's session, each an ordinary autosaved run in the Runs list. The
 * queue is kept (IndexedDB in the studio) at every change, so a reload resumes it: the interrupted
 * run from its autosave, or from its start when it had not autosaved yet.
 */
import { cloneConfig } from '../config';
import { TrainingError } from '../errors';
import { planQueue } from '../sweep/queue-plan';
import type { QueueItem, QueueRequest, QueueStatus, TrainerEvent } from '../../protocol/trainer-api';
import type { QueueStore, StoredQueue } from './queue-store';
import type { LoopEnd, QueueSession } from './queue-session';

/** Where the queue is kept, and which run's save a reload offers. */
export interface QueuePorts {
  store: QueueStore;
  /** The run id of the save a reload offers to resume; undefined when none is offered. */
  savedRunId(): Promise<string | undefined>;
}

/** Session phases in which a run holds the trainer: a queue cannot start then. */
const ACTIVE_PHASES = new Set(['starting', 'running', 'paused']);

export class RunQueue {
  private stored?: StoredQueue | null;

  constructor(
    private readonly session: QueueSession,
    private readonly emit: (event: TrainerEvent) => void,
    private readonly ports: QueuePorts,
  ) {
    session.onLoopEnd = (outcome) => void this.itemEnded(outcome);
  }

  /** The kept queue, read once. */
  private async load(): Promise<StoredQueue | null> {
    if (this.stored === undefined) this.stored = await this.ports.store.read();
    return this.stored;
  }

  async status(): Promise<QueueStatus | null> {
    return (await this.load())?.status ?? null;
  }

  /** True while a queue owns the session (and so its autosave). */
  async running(): Promise<boolean> {
    return (await this.load())?.status.phase === 'running';
  }

  async start(request: QueueRequest): Promise<QueueStatus> {
    if (await this.running()) throw new TrainingError('a queue is already running: cancel it before starting another');
    if (ACTIVE_PHASES.has(this.session.phase)) throw new TrainingError(`a run is ${this.session.phase}: stop or reset it before starting a queue`);
    const items = planQueue(request, this.session.config);
    const status: QueueStatus = {
      id: `queue-${Date.now()}`, preset: request.preset, task: this.session.config.task, phase: 'running',
      items: items.map((item): QueueItem => ({ variant: item.variant, seed: item.seed, state: 'pending' })),
    };
    this.stored = { status, configs: items.map((item) => cloneConfig(item.config)), files: this.session.models.selected?.files };
    await this.save();
    void this.startNext();
    return status;
  }

  async cancel(): Promise<void> {
    const stored = await this.load();
    if (!stored || stored.status.phase !== 'running') return;
    const current = this.currentItem();
    if (current?.state === 'running') Object.assign(current, { state: 'failed', error: 'cancelled with the queue' });
    stored.status.phase = 'cancelled';
    stored.status.currentIndex = undefined;
    await this.save();
    await this.session.pause();
  }

  /**
   * After a reload: the interrupted run goes on from its autosave (or starts again), then the rest.
   * Returns once the run that now holds the trainer is open, so what the page reads next (status,
   * the resume offer) is settled: events come on another channel and may overtake a reply.
   */
  async resume(): Promise<QueueStatus | null> {
    const stored = await this.load();
    if (!stored) return null;
    this.emit({ type: 'queue', queue: stored.status });
    if (stored.status.phase !== 'running') return stored.status;
    const current = this.currentItem();
    const savedRunId = await this.ports.savedRunId();
    if (current?.state === 'running' && current.runId !== undefined && savedRunId === current.runId) {
      await this.session.resume(undefined, false);
      // A reload between the run's last autosave and its end reaching the queue finds it finished:
      // train() would start no loop, so the item ends here and the next one starts.
      if (this.session.run?.done) await this.itemEnded({ kind: 'done', runId: current.runId });
      else await this.session.train();
    } else {
      if (current?.state === 'running') Object.assign(current, { state: 'pending', runId: undefined });
      await this.save();
      await this.startNext();
    }
    return stored.status;
  }

  private currentItem(): QueueItem | undefined {
    const index = this.stored?.status.currentIndex;
    return index === undefined ? undefined : this.stored?.status.items[index];
  }

  private async save(): Promise<void> {
    if (!this.stored) return;
    this.emit({ type: 'queue', queue: this.stored.status });
    try {
      await this.ports.store.write(this.stored);
    } catch (error) {
      this.emit({ type: 'error', name: 'QueueError', message: `the queue could not be saved, so a reload will not resume it: ${(error as Error).message}` });
    }
  }

  /** Opens and trains the next pending item, or marks the queue done. */
  private async startNext(): Promise<void> {
    const stored = this.stored;
    if (!stored || stored.status.phase !== 'running') return;
    const index = stored.status.items.findIndex((item) => item.state === 'pending');
    if (index < 0) {
      stored.status.phase = 'done';
      stored.status.currentIndex = undefined;
      await this.save();
      return;
    }
    const item = stored.status.items[index];
    try {
      // The previous run stays in the Runs list; resetting it first keeps its end apart from this item.
      await this.session.reset();
      stored.status.currentIndex = index;
      item.state = 'running';
      this.session.models.prepareRun(stored.files, stored.configs[index]);
    } catch (error) {
      Object.assign(item, { state: 'failed', error: (error as Error).message });
      await this.save();
      return this.startNext();
    }
    this.session.listings.nextLabel = { origin: 'queue', name: `${item.variant} · seed ${item.seed}`, group: stored.status.id, variant: item.variant, seed: item.seed };
    await this.save();
    await this.session.train();
    // train() returns once the run is open and its loop started (or it failed to open, which itemEnded saw).
    if (item.state === 'running' && this.session.currentRunId !== undefined) {
      item.runId = this.session.currentRunId;
      await this.save();
    }
  }

  /**
   * The session's loop ended: a finished or failed item lets the next one start; a pause waits for
   * the user. Resolves once the next item's run is open (or the queue ended).
   */
  private async itemEnded(outcome: LoopEnd): Promise<void> {
    const stored = this.stored;
    const item = this.currentItem();
    if (!stored || stored.status.phase !== 'running' || item?.state !== 'running') return;
    if (item.runId !== undefined && outcome.runId !== undefined && outcome.runId !== item.runId) return;
    if (outcome.kind === 'paused') return;
    if (outcome.kind === 'reset') {
      Object.assign(item, { state: 'failed', error: 'the run was reset, which cancels the queue' });
      stored.status.phase = 'cancelled';
      stored.status.currentIndex = undefined;
      return this.save();
    }
    if (outcome.kind === 'error') Object.assign(item, { state: 'failed', error: outcome.message });
    else item.state = 'done';
    try {
      await this.save();
      // The loop that ended is still unwinding when called from it; the next run starts once it has.
      await this.session.loopSettled();
      await this.startNext();
    } catch (error) {
      this.emit({ type: 'error', name: 'QueueError', message: `the queue stopped: ${(error as Error).message}` });
    }
  }
}
