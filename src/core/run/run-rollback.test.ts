import { FRESH_WARMUP_STEPS } from './fresh-bundle';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import type { BatchEnv } from '../envs/batch-env';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import type { MetricRecord } from '../metrics/metric-keys';
import { tinyConfig } from '../rl/fixtures/test-support';
import { openRun } from './open-run';
import { MAX_ROLLBACKS, trainLoop } from './run-loop';
import type { CheckpointFiles } from '../checkpoint/checkpoint-open';
import type { RunStore } from './run-ports';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});

/** An env whose chunk rewards are NaN on the chosen stepChunk calls (0-based), so those iterations' updates are non-finite. */
function poisonedEnv(env: BatchEnv, poisoned: (call: number) => boolean): BatchEnv {
  let calls = 0;
  return new Proxy(env, {
    get(target, key, receiver) {
      if (key !== 'stepChunk') {
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (actions: Float32Array, nSteps: number, gamma: number) => {
        const result = await target.stepChunk(actions, nSteps, gamma);
        if (poisoned(calls++)) result.reward.fill(NaN);
        return result;
      };
    },
  });
}

class MemoryStore implements RunStore {
  metrics: MetricRecord[] = [];
  saved: string[] = [];
  replaced = 0;
  private newest?: { files: CheckpointFiles; iteration: number };
  async appendMetrics(record: MetricRecord) { this.metrics.push(record); }
  async saveCheckpoint(name: string, bytes: Uint8Array, history: readonly MetricRecord[]) {
    this.saved.push(name);
    if (name !== 'final.flowtune') this.newest = { files: { kind: 'flowtune', name, bytes }, iteration: history.length };
  }
  async replaceMetrics(history: readonly MetricRecord[]) { this.metrics = [...history]; this.replaced++; }
  async newestCheckpoint() { return this.newest; }
}

// 4 envs × 2 decisions per iteration: stepChunk calls 2k and 2k + 1 are iteration k + 1's rollout.
// Two minibatches per iteration, and two skipped ones in a row stop the update.
const overrides = ['iterations=6', 'checkpoint_every=2', 'ppo.max_nonfinite_skips=2', 'actor_lr=4e-4'];

async function train(extra: string[], poisoned: (call: number) => boolean) {
  const config = tinyConfig([...overrides, ...extra]);
  // A fresh run first steps its envs FRESH_WARMUP_STEPS with random actions; calls are counted after those.
  const warmupCalls = Math.ceil(FRESH_WARMUP_STEPS / config.policy.n_action_steps);
  const opened = await openRun(config, undefined, { openEnv: async (envConfig) => poisonedEnv(new InThreadBatchEnv(mj, envConfig), (call) => call >= warmupCalls && poisoned(call - warmupCalls)), clock: () => 0 });
  const store = new MemoryStore();
  const notes: string[] = [];
  try {
    const error = await trainLoop(opened.run, store, { onNote: (note) => notes.push(note) }).then(() => undefined, (caught: unknown) => caught as Error);
    return { run: opened.run, store, notes, error, history: [...opened.run.history], actorLr: opened.run.config.actor_lr };
  } finally {
    await opened.close();
  }
}

describe('on_nonfinite=rollback', () => {
  it('rolls back to the newest checkpoint with half the actor lr, drops the iterations after it, logs it and finishes', async () => {
    // Iteration 3's rollout (calls 4 and 5) has NaN rewards; the redo of iteration 3 uses calls 6 and 7, which are clean.
    const { store, notes, error, history, actorLr, run } = await train(['on_nonfinite=rollback'], (call) => call === 4 || call === 5);
    expect(error).toBeUndefined();
    expect(run.rollbacks).toBe(1);
    // 4e-4 × ½ = 2e-4 from the rollback on.
    expect(actorLr).toBeCloseTo(2e-4, 12);
    expect(history.map((record) => record['progress/iteration'])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(history.map((record) => record['train/rollbacks'])).toEqual([undefined, undefined, 1, 1, 1, 1]);
    expect(history[1]['train/actor_lr']).toBeCloseTo(4e-4, 12);
    expect(history[2]['train/actor_lr']).toBeCloseTo(2e-4, 12);
    expect(history.every((record) => Number.isFinite(record['losses/policy']))).toBe(true);
    // The store's metrics were rewritten to the checkpoint's history, then continued.
    expect(store.replaced).toBe(1);
    expect(store.metrics).toEqual(history);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^non-finite updates: rolled back to iteration 2 with actor_lr 0\.0002 \(rollback 1 of at most 4\)/);
  }, 120_000);

  it('pause (the default) stops with the TrainingError; rollback gives up after MAX_ROLLBACKS, or with no checkpoint saved yet', async () => {
    const paused = await train([], (call) => call === 4 || call === 5);
    expect(paused.error?.name).toBe('TrainingError');
    expect(paused.error?.message).toMatch(/^2 updates in a row had a non-finite loss or gradient/);
    expect(paused.history).toHaveLength(2);

    const always = await train(['on_nonfinite=rollback'], (call) => call >= 4);
    expect(always.error?.message).toMatch(new RegExp(`the run already rolled back ${MAX_ROLLBACKS} times$`));
    expect(always.run.rollbacks).toBe(MAX_ROLLBACKS);
    // 4e-4 halved four times.
    expect(always.actorLr).toBeCloseTo(4e-4 / 16, 12);

    const early = await train(['on_nonfinite=rollback'], () => true);
    expect(early.error?.message).toMatch(/no checkpoint was saved yet to roll back to \(set checkpoint_every\)$/);
  }, 120_000);
});
