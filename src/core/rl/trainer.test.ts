import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { bundleContents, loadBundle } from '../checkpoint/policy-checkpoint';
import { defaultConfig, type RunConfig } from '../config';
import type { Mujoco } from '../envs/mujoco-types';
import { ConfigError, TrainingError } from '../errors';
import type { AdamState } from './adam';
import type { ChunkEnv } from './chunk-env';
import { evalSeeds } from './evaluate';
import type { PolicyBundle } from './policy-bundle';
import { PpoTrainer, trainSeeds, type TrainerProgress } from './trainer';
import { changedParameters, freshBundle, openChunkEnv, tinyConfig, weightSnapshot } from './test-support';

let mj: Mujoco;
const opened: ChunkEnv[] = [];
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});
afterAll(async () => {
  for (const env of opened) await env.dispose();
});

function envFor(config: RunConfig, numEnvs = config.num_envs): ChunkEnv {
  const env = openChunkEnv(mj, config, numEnvs);
  opened.push(env);
  return env;
}

/** A fixed clock, so timing metrics compare equal between runs. */
const frozenClock = () => 0;

function expectSameAdam(actual: AdamState, expected: AdamState): void {
  expect(actual.step).toBe(expected.step);
  expect([...actual.slots.keys()].sort()).toEqual([...expected.slots.keys()].sort());
  for (const [name, slot] of expected.slots) {
    expect(actual.slots.get(name)!.m, `${name}.m`).toEqual(slot.m);
    expect(actual.slots.get(name)!.v, `${name}.v`).toEqual(slot.v);
  }
}

function expectSameProgress(actual: TrainerProgress, expected: TrainerProgress): void {
  expect(actual.iteration).toBe(expected.iteration);
  expect(actual.envSteps).toBe(expected.envSteps);
  expectSameAdam(actual.actor, expected.actor);
  expectSameAdam(actual.critic, expected.critic);
}

describe('trainSeeds', () => {
  it('GRPO groups of group_size envs share a reset seed; different groups do not', () => {
    const config = { ...defaultConfig(), advantages: { ...defaultConfig().advantages, type: 'grpo' as const, group_size: 4 } };
    for (const iteration of [0, 1, 17]) {
      const seeds = trainSeeds(config, 16, iteration);
      for (let envIndex = 0; envIndex < 16; envIndex++) expect(seeds[envIndex]).toBe(seeds[envIndex - (envIndex % 4)]);
      expect(new Set(seeds).size).toBe(4);
    }
  });

  it('without GRPO every env of an iteration gets its own seed', () => {
    const seeds = trainSeeds(defaultConfig(), 64, 5);
    expect(new Set(seeds).size).toBe(64);
    expect(seeds.every(Number.isInteger)).toBe(true);
  });

  it('the eval seeds never collide with the train seeds of the first 1000 iterations', () => {
    for (const seed of [0, 1, 2 ** 31 - 1]) {
      for (const type of ['gae', 'grpo'] as const) {
        const base = defaultConfig();
        const config: RunConfig = { ...base, seed, num_envs: 256, advantages: { ...base.advantages, type } };
        const evaluation = new Set(evalSeeds(config, 100));
        expect(evaluation.size).toBe(100);
        for (let iteration = 0; iteration < 1000; iteration++) {
          const collisions = trainSeeds(config, config.num_envs, iteration).filter((trainSeed) => evaluation.has(trainSeed));
          expect(collisions, `seed ${seed}, ${type}, iteration ${iteration}`).toEqual([]);
        }
      }
    }
  });
});

describe('PpoTrainer', () => {
  it('rejects noise.method ode and an env batch of the wrong size', () => {
    const config = tinyConfig();
    const bundle = freshBundle(config, 10, 4);
    try {
      const env = envFor(config);
      expect(() => new PpoTrainer({ bundle, env, config: tinyConfig(['noise.method=ode']) })).toThrow(/noise.method 'ode' has no exploration noise/);
      expect(() => new PpoTrainer({ bundle, env, config: tinyConfig(['num_envs=2', 'ppo.minibatch_size=2']) })).toThrow(ConfigError);
      expect(() => new PpoTrainer({ bundle, env, config: tinyConfig(['num_envs=2', 'ppo.minibatch_size=2']) })).toThrow(/the env batch has 4 envs but num_envs is 2/);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('at lr = 0 an iteration reports ratio 1 and clip fraction 0 and keeps the weights', async () => {
    const config = tinyConfig(['actor_lr=0', 'critic_lr=0', 'noise.method=sde', 'noise.logprob_type=chunk']);
    const env = envFor(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const trainer = new PpoTrainer({ bundle, env, config, clock: frozenClock });
    try {
      const before = await weightSnapshot(bundle);
      const record = await trainer.step();
      expect(record['progress/iteration']).toBe(1);
      expect(record['losses/clip_fraction']).toBe(0);
      expect(Math.abs(Number(record['losses/ratio_mean']) - 1)).toBeLessThan(1e-5);
      expect(Math.abs(Number(record['losses/ratio_max']) - 1)).toBeLessThan(1e-5);
      expect(record['losses/nonfinite_skips']).toBe(0);
      // 4 envs × 2 decisions × 2 executed steps, fewer only if a chunk hit a done.
      expect(record['progress/env_steps']).toBeLessThanOrEqual(16);
      expect(record['progress/env_steps']).toBeGreaterThan(8);
      expect(changedParameters(before, await weightSnapshot(bundle))).toEqual([]);
    } finally {
      trainer.dispose();
      bundle.policy.dispose();
    }
  });

  it('keeps tf.memory().numTensors flat across iterations after the first, and evaluates when due', async () => {
    const config = tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3', 'eval.every=2', 'iterations=3']);
    const env = envFor(config);
    const evalEnv = envFor(config, config.eval_episodes);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const trainer = new PpoTrainer({ bundle, env, evalEnv, config, clock: frozenClock });
    try {
      const first = await trainer.step();
      expect(first['eval/success_rate']).toBeUndefined();
      const afterFirst = tf.memory().numTensors;
      const second = await trainer.step();
      expect(tf.memory().numTensors).toBe(afterFirst);
      expect(second['eval/success_rate']).toBeGreaterThanOrEqual(0);
      expect(trainer.lastEval?.episodes).toBe(2);
      const third = await trainer.step();
      expect(tf.memory().numTensors).toBe(afterFirst);
      // The last iteration evaluates even off the eval.every beat.
      expect(third['eval/episode_length']).toBeGreaterThan(0);
      expect(trainer.done).toBe(true);
      expect(trainer.history.map((record) => record['progress/iteration'])).toEqual([1, 2, 3]);
    } finally {
      trainer.dispose();
      bundle.policy.dispose();
    }
  });
});

describe('PpoTrainer non-finite updates', () => {
  it('carries the skip streak across iterations and pauses with a TrainingError, weights untouched', async () => {
    // A NaN in the value head makes every value, advantage and loss NaN: each minibatch is skipped.
    const config = tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3']);
    const env = envFor(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const trainer = new PpoTrainer({ bundle, env, config, clock: frozenClock });
    try {
      const weights = await bundle.policy.getWeights();
      weights.get('value.output.bias')!.data[0] = NaN;
      bundle.policy.setWeights(weights);
      const before = await weightSnapshot(bundle);
      // 8 decisions in minibatches of 4: two skips in the first iteration, the third pauses the run.
      const first = await trainer.step();
      expect(first['losses/nonfinite_skips']).toBe(2);
      expect(first['losses/ratio_mean']).toBeUndefined();
      const error = await trainer.step().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TrainingError);
      expect((error as Error).message).toContain('training paused');
      expect(changedParameters(before, await weightSnapshot(bundle))).toEqual([]);
      expect((await trainer.progress()).actor.step).toBe(0);
    } finally {
      trainer.dispose();
      bundle.policy.dispose();
    }
  });
});

describe('resuming from a checkpoint', () => {
  /** Trains one iteration, saves a .flowtune file with the trainer's progress, then trains one more. */
  async function runAndSave(config: RunConfig): Promise<{ bytes: Uint8Array; saved: TrainerProgress; first: Record<string, number | string>; next: Record<string, number | string>; after: TrainerProgress; weights: Map<string, Float32Array>; obsDim: number; actionDim: number }> {
    const env = envFor(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const trainer = new PpoTrainer({ bundle, env, config, clock: frozenClock });
    try {
      const first = await trainer.step();
      const saved = await trainer.progress();
      const bytes = encodeFlowtune(await bundleContents({ bundle, task: config.task, stage: 'ppo', config, progress: saved }));
      const next = await trainer.step();
      return { bytes, saved, first, next, after: await trainer.progress(), weights: await weightSnapshot(bundle), obsDim: env.obsDim, actionDim: env.actionDim };
    } finally {
      trainer.dispose();
      bundle.policy.dispose();
    }
  }

  async function resume(config: RunConfig, bytes: Uint8Array, history: Record<string, number | string>[], obsDim: number, actionDim: number) {
    const loaded = loadBundle(bytes, { expectedTask: config.task, expected: { obsDim, actionDim } });
    const bundle: PolicyBundle = loaded.bundle;
    const trainer = new PpoTrainer({ bundle, env: envFor(config), config, clock: frozenClock });
    try {
      expect(loaded.progress).toBeDefined();
      trainer.restore(loaded.progress!, history);
      const restored = await trainer.progress();
      const next = await trainer.step();
      return { restored, iteration: trainer.iteration, next, after: await trainer.progress(), weights: await weightSnapshot(bundle) };
    } finally {
      trainer.dispose();
      bundle.policy.dispose();
    }
  }

  it('GRPO (every iteration resets its envs): the resumed iteration equals the uninterrupted one, metrics, moments and weights', async () => {
    const config = tinyConfig(['advantages.type=grpo', 'actor_lr=1e-3', 'critic_lr=1e-3']);
    const original = await runAndSave(config);
    const resumed = await resume(config, original.bytes, [original.first], original.obsDim, original.actionDim);
    // The restored optimizers hold exactly the saved moments and step counts.
    expectSameProgress(resumed.restored, original.saved);
    expect(original.saved.actor.step).toBeGreaterThan(0);
    expect(original.saved.critic.slots.size).toBeGreaterThan(0);
    expect(resumed.iteration).toBe(2);
    expect(resumed.next).toEqual(original.next);
    expectSameProgress(resumed.after, original.after);
    expect(changedParameters(original.weights, resumed.weights)).toEqual([]);
  });

  it('GAE: the resumed run restarts its episodes from the iteration seeds, so two resumes agree with each other', async () => {
    // Mid-episode physics is not checkpointed: an uninterrupted GAE run continues its episodes,
    // a resumed one resets them with trainSeeds(iteration). Resumes are still exactly reproducible.
    const config = tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3']);
    const original = await runAndSave(config);
    const once = await resume(config, original.bytes, [original.first], original.obsDim, original.actionDim);
    const twice = await resume(config, original.bytes, [original.first], original.obsDim, original.actionDim);
    expectSameProgress(once.restored, original.saved);
    expect(once.iteration).toBe(2);
    expect(twice.next).toEqual(once.next);
    expectSameProgress(twice.after, once.after);
    expect(changedParameters(once.weights, twice.weights)).toEqual([]);
  });
});
