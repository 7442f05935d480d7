import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeShardedEnv } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { inspectFlowtune } from '../checkpoint/flowtune-file';
import type { CheckpointSummary } from '../checkpoint/checkpoint-reader';
import type { RunConfig } from '../config/run-config';
import { readDemoFile } from '../envs/demo-format';
import type { CheckpointFiles, RecipePoint, RecipeStatus, TrainerEvent } from '../../protocol/trainer-api';
import { smallConfig } from '../run/fixtures/test-checkpoints';
import { RecipeSession } from './recipe-session';
import { writeHdf5 } from '../datasets/fixtures/write-hdf5';

const openEnv = (config: Parameters<typeof createNodeShardedEnv>[0]) => createNodeShardedEnv(config, { numWorkers: 1 });

/** The demos flow over a session stand-in whose model hand-over records each finished stage's file. */
function studio() {
  const selected: { checkpoint?: CheckpointSummary } = {};
  const models: string[] = [];
  const session = {
    config: smallConfig(['task=reach', 'policy.n_obs_steps=1']) as RunConfig,
    phase: 'idle',
    hasRun: false,
    models: {
      loadCheckpoint: (files: CheckpointFiles) => {
        if (files.kind !== 'flowtune') throw new Error(`a stage hands over .flowtune files, got ${files.kind}`);
        selected.checkpoint = inspectFlowtune(files.bytes);
        models.push(`${files.name} ${selected.checkpoint.metadata.stage}`);
      },
    },
  };
  const statuses: RecipeStatus[] = [];
  const points: RecipePoint[] = [];
  const emit = (event: TrainerEvent) => {
    if (event.type === 'recipe') statuses.push(event.status);
    if (event.type === 'recipe-point') points.push(event.point);
    if (event.type === 'recipe-points') points.splice(0, points.length, ...event.points);
  };
  const recipe = new RecipeSession(session, emit, { openEnv, cores: 2 });
  return { session, selected, recipe, statuses, points, models };
}

describe('RecipeSession', () => {
  beforeAll(async () => {
    await useNodeBackend('wasm');
  });

  it('records demos in env workers, pretrains with pauses and evals, runs stage 2, and each result becomes the model', async () => {
    const { selected, recipe, statuses, points, models } = studio();
    const summary = await recipe.recordDemos({ episodes: 3, noise: 0.1, seed: 0 });
    expect(summary).toMatchObject({ source: 'recorded', task: 'reach', episodes: 3, noise: 0.1 });
    expect(statuses.filter((status) => status.stage === 'record').map((status) => status.done)).toContain(3);
    const exported = readDemoFile(recipe.exportDemos().bytes);
    expect(exported.metadata.episodes).toBe(3);
    expect([...exported.demos.seeds]).toEqual([0, 1, 2]);

    // Pause at once: the stage parks after its first step, and Train is refused only while it runs.
    const started = recipe.startPretrain({ 'pretrain.steps': 8, 'pretrain.batch_size': 16, 'pretrain.lr': 1e-3, 'pretrain.eval_every': 4, eval_episodes: 2 });
    expect(recipe.blocksTraining()).toBe('the demos flow is pretraining: pause it or let it finish before training');
    await recipe.pauseRecipe();
    await started;
    expect(recipe.status()).toMatchObject({ phase: 'paused', stage: 'pretrain', done: 1, total: 8 });
    const parked = await recipe.exportRecipePolicy();
    expect(inspectFlowtune(parked.bytes).metadata).toMatchObject({ stage: 'bc', task: 'reach' });
    await recipe.resumeRecipe();
    expect(recipe.status()).toMatchObject({ phase: 'done', stage: 'pretrain', done: 8, policyStage: 'bc' });
    // Evaluations at steps 4 and 8, and the end's is stored in the checkpoint that became the model.
    expect(points.filter((point) => point.evalSuccess !== undefined).map((point) => point.step)).toEqual([4, 8]);
    expect(points.some((point) => point.loss !== undefined && Number.isFinite(point.loss))).toBe(true);
    expect(models.at(-1)).toBe('reach-demos-bc.flowtune bc');
    expect(selected.checkpoint?.metadata.eval).toMatchObject({ episodes: 2, seed: 1_000_000 });

    await recipe.startOffline({ 'offline.rollouts': 2, 'offline.steps': 4, 'offline.beta': 1, 'offline.eval_every': 0, eval_episodes: 1 });
    expect(recipe.status()).toMatchObject({ phase: 'done', stage: 'offline', policyStage: 'offline' });
    expect(models.at(-1)).toBe('reach-demos-offline.flowtune offline');
    expect(selected.checkpoint?.metadata.training.step).toBe(12);
    // Stage 1's chart points stay; stage 2's follow them.
    expect(points.some((point) => point.stage === 'pretrain')).toBe(true);
    // Stage 2 evaluates its start policy (step 0) and its end, as npm run offline does.
    expect(points.filter((point) => point.stage === 'offline' && point.evalSuccess !== undefined).map((point) => point.step)).toEqual([0, 4]);
    expect(selected.checkpoint?.metadata.eval).toMatchObject({ episodes: 1, seed: 1_000_000 });
  }, 120_000);

  it('refuses a corrupt or mismatched .demos file in one sentence and keeps the demos it holds', async () => {
    const { recipe } = studio();
    await recipe.recordDemos({ episodes: 2, noise: 0, seed: 5 });
    const held = recipe.status().demos;
    expect(() => recipe.loadDemos({ name: 'broken.demos', bytes: new Uint8Array([1, 2, 3]) })).toThrow(/^broken\.demos is not a valid \.demos file: /);
    const lift = studio();
    lift.session.config = smallConfig(['task=lift', 'policy.n_obs_steps=1']);
    const liftDemos = await lift.recipe.recordDemos({ episodes: 1, noise: 0, seed: 0 });
    expect(liftDemos?.task).toBe('lift');
    expect(() => recipe.loadDemos({ name: 'lift.demos', bytes: lift.recipe.exportDemos().bytes }))
      .toThrow("lift.demos cannot be used: the demos are for task 'lift' but the task is 'reach'");
    expect(recipe.status().demos).toEqual(held);
    await expect(recipe.startOffline({ 'offline.rollouts': 0, 'offline.steps': 2, eval_episodes: 0 })).rejects.toThrow('stage 2 starts from a stage-1 policy: pretrain one first');
    await expect(recipe.startPretrain({ 'pretrain.steps': 0, eval_episodes: 0 })).rejects.toThrow('pretrain.steps must be an integer in [1, 10000000] (got 0)');
    await expect(recipe.startPretrain({ 'offline.steps': 5 } as never)).rejects.toThrow('offline.steps is not a setting of stage 1; it takes pretrain.* fields and eval_episodes');
  }, 60_000);

  it('discards a paused stage on request, or when a stage starts anew; the model stays until a stage finishes', async () => {
    const { recipe, models } = studio();
    await recipe.recordDemos({ episodes: 2, noise: 0, seed: 0 });
    const request = { 'pretrain.steps': 6, 'pretrain.batch_size': 8, 'pretrain.lr': 1e-3, 'pretrain.eval_every': 0, eval_episodes: 0 };
    const first = recipe.startPretrain(request);
    await recipe.pauseRecipe();
    await first;
    await expect(recipe.recordDemos({ episodes: 1, noise: 0, seed: 0 })).rejects.toThrow('the demos flow is paused in stage 1: resume or discard it first');
    await recipe.discardRecipe();
    expect(recipe.status()).toMatchObject({ phase: 'stopped', message: 'stage 1 discarded at step 1 / 6; the model is unchanged' });
    expect(recipe.status().policyStage).toBeUndefined();
    expect(models).toEqual([]);
    // Paused again, then a new start replaces the parked loop and runs to its end.
    const second = recipe.startPretrain(request);
    await recipe.pauseRecipe();
    await second;
    await recipe.startPretrain({ ...request, 'pretrain.steps': 3 });
    expect(recipe.status()).toMatchObject({ phase: 'done', stage: 'pretrain', done: 3, total: 3, policyStage: 'bc' });
    expect(models).toEqual(['reach-demos-bc.flowtune bc']);
  }, 60_000);

  it('trains stage 1 in the observation its demos hold, as npm run pretrain does, when the Config tab asks for another', async () => {
    const { session, recipe, selected } = studio();
    await recipe.recordDemos({ episodes: 2, noise: 0, seed: 0 });
    session.config = smallConfig(['task=reach', 'policy.n_obs_steps=1', 'env.obs_type=pointcloud']);
    // A dropped file of those demos is taken too: its observation is stage 1's.
    expect(recipe.loadDemos({ name: 'state.demos', bytes: recipe.exportDemos().bytes })).toMatchObject({ source: 'state.demos', obsType: 'state', episodes: 2 });
    await recipe.startPretrain({ 'pretrain.steps': 2, 'pretrain.batch_size': 8, 'pretrain.eval_every': 0, eval_episodes: 0 });
    expect(recipe.status()).toMatchObject({ phase: 'done', stage: 'pretrain', policyStage: 'bc' });
    expect(selected.checkpoint?.metadata.config).toMatchObject({ env: { obs_type: 'state' } });
    // Stage 2 starts from that policy, whose env the demos fit; the Config tab's still does not.
    await expect(recipe.startOffline({ 'offline.rollouts': 0, 'offline.steps': 1, eval_episodes: 0 })).rejects.toThrow(/^the held demos cannot be used: the demos hold state observations but reach's env gives pointcloud observations/);
  }, 60_000);
});

describe('RecipeSession: a dropped dataset', () => {
  it('converts a D4RL file for the selected task and holds it; a bad drop is one sentence and the held demos stay', async () => {
    const { session, recipe } = studio();
    session.config = smallConfig(['task=hopper', 'policy.n_obs_steps=1']);
    const steps = 6;
    const bytes = await writeHdf5({
      observations: { data: new Float32Array(steps * 11).map((_, index) => Math.sin(index)), shape: [steps, 11], dtype: '<f' },
      actions: { data: new Float32Array(steps * 3).map((_, index) => Math.cos(index) / 2), shape: [steps, 3], dtype: '<f' },
      rewards: { data: new Float32Array(steps).fill(1), shape: [steps], dtype: '<f' },
      terminals: { data: Uint8Array.of(0, 0, 1, 0, 0, 0), shape: [steps], dtype: '|b1' },
      timeouts: { data: Uint8Array.of(0, 0, 0, 0, 0, 1), shape: [steps], dtype: '|b1' },
    });
    const summary = await recipe.importDataset({ files: [{ name: 'hopper-medium.hdf5', bytes }] });
    expect(summary).toMatchObject({ source: 'hopper-medium.hdf5', task: 'hopper', obsType: 'state', episodes: 2, steps: 6, successes: 0 });
    expect(recipe.status()).toMatchObject({ stage: 'record', phase: 'done', message: 'converted hopper-medium.hdf5 (D4RL) for hopper: 2 episodes, 6 steps; 1 terminated, 1 truncated' });
    const exported = readDemoFile(recipe.exportDemos().bytes);
    expect([...exported.demos.terminated!]).toEqual([1, 0]);

    const held = recipe.status().demos;
    await expect(recipe.importDataset({ files: [{ name: 'cut.hdf5', bytes: bytes.slice(0, 2000) }] })).rejects.toThrow(/^cut\.hdf5 is cut short: /);
    session.config = smallConfig(['task=walker2d', 'policy.n_obs_steps=1']);
    await expect(recipe.importDataset({ files: [{ name: 'hopper-medium.hdf5', bytes }] }))
      .rejects.toThrow("hopper-medium.hdf5's observations hold 11 values but walker2d's state observation holds 17");
    expect(recipe.status().demos).toEqual(held);
  }, 60_000);
});
