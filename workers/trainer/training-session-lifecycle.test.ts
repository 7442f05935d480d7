import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useNodeBackend } from '../../src/cli/node-backend';
import type { CheckpointFiles, ModelSource, TrainerEvent } from '../../src/protocol/trainer-api';
import { runArchive, savedRuns } from './indexeddb-stores';
import { clearMemoryDb } from './fixtures/memory-studio-db';
import { flowtuneFile, PICK_CUBE_STATE, smallConfig } from '../../src/core/run/fixtures/test-checkpoints';
import { TrainingSession } from './training-session';

// Node has no IndexedDB and no env workers: the studio's database is in memory, and runs are stand-ins
// whose saves are real .flowtune files (the session's own lifecycle code runs unchanged).
vi.mock('./studio-db', () => import('./fixtures/memory-studio-db'));
vi.mock('../../src/core/run/open-run', async () => ({ openRun: (await import('./fixtures/fake-run')).openFakeRun }));

const CONFIG = ['iterations=8', 'checkpoint_every=2', 'eval.every=0'];

let bcFile: CheckpointFiles;
let otherFile: CheckpointFiles;

/** A session as a fresh trainer worker holds it (after a reload), with the events it sent. */
function openSession(): { session: TrainingSession; events: TrainerEvent[] } {
  const session = new TrainingSession(smallConfig(CONFIG));
  const events: TrainerEvent[] = [];
  session.setListener((event) => events.push(event));
  session.models.loadCheckpoint(bcFile);
  return { session, events };
}

/** Trains `iterations` iterations and lets the loop end: paused, with an autosave. */
async function train(session: TrainingSession, iterations: number): Promise<void> {
  await session.train(iterations);
  await session.loopSettled();
}

const notices = (events: TrainerEvent[]) => events.flatMap((event) => (event.type === 'notice' ? [event.message] : []));
const lastModel = (events: TrainerEvent[]) => events.filter((event): event is { type: 'model'; model: ModelSource; next?: ModelSource } => event.type === 'model').at(-1);
const source = (model: ModelSource | undefined) => (model?.kind === 'checkpoint' ? model.info.source : model?.kind);

describe('the studio\'s run lifecycle', () => {
  beforeAll(async () => {
    await useNodeBackend('cpu');
    bcFile = await flowtuneFile('bc.flowtune', smallConfig(CONFIG), PICK_CUBE_STATE);
    otherFile = await flowtuneFile('other.flowtune', smallConfig(CONFIG), PICK_CUBE_STATE);
  });
  beforeEach(() => clearMemoryDb());

  it('Train while a reload offers a saved run keeps that run with its weights, says so, and the new run\'s autosave replaces none of it', async () => {
    const before = openSession();
    await train(before.session, 3);
    const savedId = before.session.currentRunId!;

    const { session, events } = openSession();
    expect(await session.offers.offered()).toMatchObject({ iteration: 3, name: expect.stringMatching(/^pick-cube \d\d:\d\d$/) });
    await train(session, 2);
    expect(notices(events)).toEqual([expect.stringMatching(/^the saved run pick-cube \d\d:\d\d from iteration 3 is kept in the Runs list with its weights: resume it there$/)]);
    expect(events).toContainEqual({ type: 'saved-run', saved: null });
    expect((await savedRuns.read(savedId))?.summary.iteration).toBe(3);
    expect((await savedRuns.offer())?.runId).toBe(session.currentRunId);
    const runs = await session.listings.all();
    expect(runs.find((run) => run.id === savedId)).toMatchObject({ current: false, savedIteration: 3, iterations: 3 });
    expect(runs.find((run) => run.id === session.currentRunId)).toMatchObject({ current: true, savedIteration: 2 });
  });

  it('Reset keeps the run with its weights and says so; a reload then offers nothing and the status names no autosave', async () => {
    const { session, events } = openSession();
    await train(session, 4);
    const id = session.currentRunId!;
    expect(session.status().savedIteration).toBe(4);
    await session.reset(true);
    expect(session.status()).toMatchObject({ phase: 'idle', savedIteration: undefined });
    expect(notices(events)).toEqual([expect.stringMatching(/^pick-cube \d\d:\d\d is kept in the Runs list with its weights from iteration 4: resume it there$/)]);
    expect(await openSession().session.offers.offered()).toBeNull();
    expect((await savedRuns.read(id))?.summary.iteration).toBe(4);
    expect((await runArchive.listings()).find((run) => run.id === id)).toMatchObject({ savedIteration: 4 });
  });

  it('a kept run resumes from its own save at its own iteration and trains on in one call; refused while another run exists', async () => {
    const { session, events } = openSession();
    await train(session, 3);
    const keptId = session.currentRunId!;
    await session.reset();
    await train(session, 5);
    await expect(session.resume(keptId)).rejects.toThrow('a run exists: reset it first (it stays in the Runs list), then resume another');
    await session.reset();
    events.length = 0;
    await session.resume(keptId);
    expect(session.currentRunId).toBe(keptId);
    // Restored with its 3 iterations of history, then the loop is already going.
    const restored = events.find((event) => event.type === 'history');
    expect(restored?.type === 'history' && restored.records.length).toBe(3);
    expect(['running', 'done']).toContain(session.phase);
    await session.loopSettled();
    expect(session.run?.iteration).toBe(8);
    expect((await savedRuns.offer())?.runId).toBe(keptId);
  });

  it('Resume on the banner restores the offered run and trains in one call, and the banner\'s offer goes', async () => {
    await train(openSession().session, 3);
    const { session, events } = openSession();
    const summary = await session.resume();
    expect(summary.iteration).toBe(3);
    expect(['running', 'done']).toContain(session.phase);
    expect(events).toContainEqual({ type: 'saved-run', saved: null });
    expect(await session.offers.offered()).toBeNull();
    await session.loopSettled();
    expect(session.status()).toMatchObject({ phase: 'done', iteration: 8 });
  });

  it('a checkpoint chosen while a run exists waits for Reset: the model Train uses stays the run\'s until then', async () => {
    const { session, events } = openSession();
    await train(session, 1);
    expect(source(lastModel(events)?.model)).toBe('bc.flowtune');
    session.models.loadCheckpoint(otherFile);
    expect(source(lastModel(events)?.model)).toBe('bc.flowtune');
    expect(source(lastModel(events)?.next)).toBe('other.flowtune');
    await session.reset();
    expect(source(lastModel(events)?.model)).toBe('other.flowtune');
    expect(lastModel(events)?.next).toBeUndefined();
  });

  it('the banner\'s Keep leaves the run in the Runs list with its weights; Discard deletes it', async () => {
    await train(openSession().session, 2);
    const { session, events } = openSession();
    const kept = (await savedRuns.offer())!.runId;
    await session.offers.keep();
    expect(await session.offers.offered()).toBeNull();
    expect((await savedRuns.read(kept))?.summary.iteration).toBe(2);
    expect(notices(events)).toEqual([expect.stringMatching(/from iteration 2 is kept in the Runs list with its weights: resume it there$/)]);

    await train(openSession().session, 2);
    const reloaded = openSession();
    const discarded = (await savedRuns.offer())!.runId;
    await reloaded.session.offers.discard();
    expect(await savedRuns.read(discarded)).toBeNull();
    expect((await runArchive.listings()).map((run) => run.id)).toEqual([kept]);
    expect(notices(reloaded.events)).toEqual([expect.stringMatching(/from iteration 2 was deleted$/)]);
  });
});
