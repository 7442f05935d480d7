import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { encodeFlowtune } from '../checkpoint/flowtune-file';

import type { RunConfig } from '../config/run-config';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { ConfigError, TrainingError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import { bitsOf, changedParameters, freshBundle, openChunkEnv, tinyConfig, weightSnapshot } from '../rl/fixtures/test-support';
import { openRun } from './open-run';
import { Run } from './run';
import type { RunPorts } from './run-ports';
import { FlowLearner } from '../rl/flow-family';
import { decodePolicyCheckpoint } from '../checkpoint/fixtures/decode-bytes';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});

/** A fixed clock, so timing metrics compare equal between runs. */
const frozenClock = () => 0;

function inThreadPorts(): RunPorts {
  return { openEnv: async (config) => new InThreadBatchEnv(mj, config), clock: frozenClock };
}

/** A fresh run's first checkpoint: iteration 0, no optimizer state, so openRun starts it from these weights. */
async function initialCheckpoint(config: RunConfig) {
  const probe = openChunkEnv(mj, config, 1);
  const bundle = freshBundle(config, probe.obsDim, probe.actionDim, 5);
  await probe.dispose();
  const run = new Run({ learner: new FlowLearner(bundle, config), env: openChunkEnv(mj, config), config, clock: frozenClock });
  try {
    const contents = await run.contents('bc');
    // A BC checkpoint carries no optimizer state: drop it so the run starts at iteration 0.
    return encodeFlowtune({ ...contents, optimizer: undefined });
  } finally {
    run.dispose();
    await run.env.dispose();
    bundle.policy.dispose();
  }
}

async function trainFrom(bytes: Uint8Array, config: RunConfig, iterations: number) {
  const checkpoint = decodePolicyCheckpoint(bytes, { expectedTask: config.task });
  const opened = await openRun(config, checkpoint, inThreadPorts());
  try {
    const records: MetricRecord[] = [];
    for (let step = 0; step < iterations; step++) records.push(await opened.run.step());
    const saved = encodeFlowtune(await opened.run.contents());
    return { records, saved, history: [...opened.run.history], weights: await weightSnapshot(opened.run.bundle), notes: opened.notes };
  } finally {
    await opened.close();
  }
}

/**
 * N iterations straight against N/2, a save, a resume from the saved bytes, and N/2 more:
 * every metric of every iteration and every weight bit must match (DESIGN.md §6 "Resume state").
 */
async function expectExactResume(overrides: string[]) {
  // Episodes of 3 env steps end inside every iteration (4 env steps per env), so resets and seed streams are exercised mid-run.
  const config = tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3', 'env.max_episode_steps=3', 'eval_episodes=2', 'eval.every=2', ...overrides]);
  const start = await initialCheckpoint(config);
  const straight = await trainFrom(start, config, 4);
  const firstHalf = await trainFrom(start, config, 2);
  const secondHalf = await trainFrom(firstHalf.saved, config, 2);
  expect(secondHalf.notes).toEqual([]);
  expect(secondHalf.records).toEqual(straight.records.slice(2));
  expect(secondHalf.history).toEqual(straight.history);
  expect(changedParameters(straight.weights, secondHalf.weights)).toEqual([]);
  // The comparison is not vacuous: the weights moved and episodes finished.
  expect(straight.records.every((record) => Number(record['charts/episode_length']) > 0)).toBe(true);
  expect(straight.records[3]['progress/iteration']).toBe(4);
  return { start, straight, firstHalf };
}

describe('Run: exact resume', () => {
  for (const advantages of ['gae', 'grpo'] as const) {
    for (const method of ['sde', 'noise'] as const) {
      it(`${advantages} × ${method}: N straight equals N/2, save, resume, N/2 — metrics, history and weights bit for bit`, async () => {
        await expectExactResume([`advantages.type=${advantages}`, `noise.method=${method}`]);
      }, 120_000);
    }
  }

  it('gae × sde with ppo.bc_coef: the checkpoint keeps the starting policy as the BC reference, so losses/bc resumes bit for bit', async () => {
    const { start, straight, firstHalf } = await expectExactResume(['advantages.type=gae', 'noise.method=sde', 'ppo.bc_coef=0.5']);
    // The regularizer ran and the policy left its reference, so a reference re-derived from the resumed weights would show.
    expect(straight.records.every((record) => Number.isFinite(record['losses/bc']))).toBe(true);
    expect(Number(straight.records[3]['losses/bc'])).toBeGreaterThan(0);
    const initial = decodePolicyCheckpoint(start);
    const saved = decodePolicyCheckpoint(firstHalf.saved);
    expect([...saved.reference!.keys()]).toEqual([...initial.tensors.keys()]);
    for (const [name, entry] of initial.tensors) expect([...bitsOf(saved.reference!.get(name)!.data)], name).toEqual([...bitsOf(entry.data)]);
  }, 120_000);

  it('a resume with ppo.bc_coef from a checkpoint saved without it says whose weights the reference is', async () => {
    const config = tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3']);
    const half = await trainFrom(await initialCheckpoint(config), config, 1);
    expect(decodePolicyCheckpoint(half.saved).reference).toBeUndefined();
    const resumed = await trainFrom(half.saved, tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3', 'ppo.bc_coef=0.5']), 1);
    expect(resumed.notes).toEqual(['the checkpoint holds no BC reference policy, so ppo.bc_coef regularizes toward the weights it resumes from']);
    // Its first minibatch compares the policy with itself.
    expect(Number.isFinite(resumed.records[0]['losses/bc'])).toBe(true);
  }, 60_000);

  it('gae × sde with ppo.kl_adapt: the adapted actor lr is part of the resume state, so it resumes bit for bit', async () => {
    // A target far below the measured KL divides the lr by 1.5 after every update; a resume that forgot the scale would not.
    const { straight } = await expectExactResume(['advantages.type=gae', 'noise.method=sde', 'ppo.critic_warmup_steps=0', 'ppo.kl_adapt=0.0000001']);
    const lrs = straight.records.map((record) => Number(record['train/actor_lr']));
    expect(lrs[1]).toBeCloseTo(lrs[0] / 1.5, 12);
    expect(lrs[3]).toBeCloseTo(lrs[0] / 1.5 ** 3, 12);
  }, 120_000);

  it('policy.obs_clip on an unclamped checkpoint: the run clamps what its policy reads, saves the clamp and resumes exactly', async () => {
    // The fixture's normalizer spans ±2 in env units, so reach's observations normalize to a few tenths: ±0.05 bites.
    const overrides = ['advantages.type=gae', 'noise.method=sde'];
    const { start, straight } = await expectExactResume([...overrides, 'policy.obs_clip=0.05']);
    expect(decodePolicyCheckpoint(start).obsNormalizer.clip).toBeUndefined();
    expect(decodePolicyCheckpoint(straight.saved).obsNormalizer.clip).toBe(0.05);
    // The same run without the clamp acts on other inputs, so its first iteration reads otherwise.
    const plain = await trainFrom(start, tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3', 'env.max_episode_steps=3', 'eval_episodes=2', 'eval.every=2', ...overrides]), 1);
    expect(plain.records[0]['losses/value']).not.toBe(straight.records[0]['losses/value']);
    expect(decodePolicyCheckpoint(plain.saved).obsNormalizer.clip).toBeUndefined();
  }, 120_000);

  it('gae × sde with step-spaced observation histories resumes exactly too', async () => {
    await expectExactResume(['advantages.type=gae', 'noise.method=sde', 'policy.n_obs_steps=2', 'policy.history_spacing=step']);
  }, 120_000);

  it('a save made mid-rollout (a pause) resumes from the start of that iteration, exactly', async () => {
    const config = tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3', 'env.max_episode_steps=3', 'env.steps_per_iteration=3']);
    const start = await initialCheckpoint(config);
    const straight = await trainFrom(start, config, 4);
    let decisions = 0;
    let midRollout: Uint8Array | undefined;
    const checkpoint = decodePolicyCheckpoint(start, { expectedTask: config.task });
    const holder: { run?: Run } = {};
    const opened = await openRun(config, checkpoint, {
      ...inThreadPorts(),
      pauseGate: async (where) => {
        // The 8th decision is the 2nd of iteration 3 (3 decisions per iteration).
        if (where === 'decision' && ++decisions === 8) midRollout = encodeFlowtune(await holder.run!.contents());
      },
    });
    holder.run = opened.run;
    try {
      for (let step = 0; step < 3; step++) await opened.run.step();
    } finally {
      await opened.close();
    }
    expect(midRollout).toBeDefined();
    const resumed = await trainFrom(midRollout!, config, 2);
    expect(resumed.notes).toEqual([]);
    expect(resumed.records).toEqual(straight.records.slice(2));
    expect(changedParameters(straight.weights, resumed.weights)).toEqual([]);
  }, 120_000);

  it('a resume under other env settings says it is not exact instead of failing', async () => {
    const config = tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3']);
    const start = await initialCheckpoint(config);
    const half = await trainFrom(start, config, 1);
    const other = await trainFrom(half.saved, { ...config, env: { ...config.env, max_episode_steps: 9 } }, 1);
    expect(other.notes).toHaveLength(1);
    expect(other.notes[0]).toMatch(/other env settings .* not exact/);
  }, 60_000);
});

describe('Run', () => {
  const opened: InThreadBatchEnv[] = [];
  afterAll(async () => {
    for (const env of opened) await env.dispose();
  });
  function envFor(config: RunConfig, numEnvs = config.num_envs): InThreadBatchEnv {
    const env = openChunkEnv(mj, config, numEnvs) as InThreadBatchEnv;
    opened.push(env);
    return env;
  }

  it('rejects noise.method ode and an env batch of the wrong size', () => {
    const config = tinyConfig();
    const bundle = freshBundle(config, 10, 4);
    try {
      const env = envFor(config);
      expect(() => new Run({ learner: new FlowLearner(bundle, tinyConfig(['noise.method=ode'])), env, config: tinyConfig(['noise.method=ode']) })).toThrow(/noise.method 'ode' has no exploration noise/);
      expect(() => new Run({ learner: new FlowLearner(bundle, tinyConfig(['num_envs=2', 'ppo.minibatch_size=2'])), env, config: tinyConfig(['num_envs=2', 'ppo.minibatch_size=2']) })).toThrow(ConfigError);
      expect(() => new Run({ learner: new FlowLearner(bundle, tinyConfig(['num_envs=2', 'ppo.minibatch_size=2'])), env, config: tinyConfig(['num_envs=2', 'ppo.minibatch_size=2']) })).toThrow(/the env batch has 4 envs but num_envs is 2/);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('setNoise is the only live change: the config is frozen, the change applies from the next rollout, ode is refused', async () => {
    const config = tinyConfig(['noise.method=sde', 'noise.level=0.5']);
    const env = envFor(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const run = new Run({ learner: new FlowLearner(bundle, config), env, config, clock: frozenClock });
    try {
      expect(() => {
        (run.config.noise as { level: number }).level = 0.9;
      }).toThrow(TypeError);
      const first = await run.step();
      expect(first['noise/level']).toBe(0.5);
      run.setNoise({ level: 0.25 });
      expect(run.config.noise.level).toBe(0.25);
      expect((await run.step())['noise/level']).toBe(0.25);
      expect(() => run.setNoise({ method: 'ode' })).toThrow(/noise.method 'ode'/);
      expect(() => run.setNoise({ level: -1 })).toThrow(ConfigError);
      expect(run.config.noise.level).toBe(0.25);
      // sde needs a > 0: a level the sampler would refuse is refused here, before the next rollout.
      expect(() => run.setNoise({ level: 0 })).toThrow('noise.level (0) must be a number in (0, 5] with noise.method=sde');
      expect(() => run.setNoise({ decay: 'linear', level_min: 0 })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'noise.level_min' }));
      expect(run.config.noise).toMatchObject({ level: 0.25, decay: 'constant' });
      // Only the noise section is replaced: the rest of the config in force is not copied again, and stays frozen.
      const { policy, ppo } = run.config;
      run.setNoise({ level: 0.3 });
      expect(run.config.policy).toBe(policy);
      expect(run.config.ppo).toBe(ppo);
      expect(Object.isFrozen(run.config.noise)).toBe(true);
      expect(Object.isFrozen(run.config)).toBe(true);
    } finally {
      run.dispose();
      bundle.policy.dispose();
    }
  });

  it('at lr = 0 an iteration reports ratio 1 and clip fraction 0 and keeps the weights', async () => {
    const config = tinyConfig(['actor_lr=0', 'critic_lr=0', 'noise.method=sde', 'noise.logprob_type=chunk']);
    const env = envFor(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const run = new Run({ learner: new FlowLearner(bundle, config), env, config, clock: frozenClock });
    try {
      const before = await weightSnapshot(bundle);
      const record = await run.step();
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
      run.dispose();
      bundle.policy.dispose();
    }
  });

  it('keeps tf.memory().numTensors flat across iterations after the first, and evaluates when due', async () => {
    const config = tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3', 'eval.every=2', 'iterations=3']);
    const env = envFor(config);
    const evalEnv = envFor(config, config.eval_episodes);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const run = new Run({ learner: new FlowLearner(bundle, config), env, evalEnv, config, clock: frozenClock });
    try {
      const first = await run.step();
      expect(first['eval/success_rate']).toBeUndefined();
      const afterFirst = tf.memory().numTensors;
      const second = await run.step();
      expect(tf.memory().numTensors).toBe(afterFirst);
      // Two eval episodes: the rate is one of 0, 1/2, 1 and matches the summary the run keeps.
      expect([0, 0.5, 1]).toContain(second['eval/success_rate']);
      expect(second['eval/success_rate']).toBe(run.lastEval?.successRate);
      expect(run.lastEval?.episodes).toBe(2);
      const third = await run.step();
      expect(tf.memory().numTensors).toBe(afterFirst);
      // The last iteration evaluates even off the eval.every beat.
      expect(third['eval/episode_length']).toBeGreaterThan(0);
      expect(run.done).toBe(true);
      expect(run.history.map((record) => record['progress/iteration'])).toEqual([1, 2, 3]);
    } finally {
      run.dispose();
      bundle.policy.dispose();
    }
  });

  it('GRPO with grpo_filter: an iteration whose groups all failed keeps every weight and logs no NaN', async () => {
    // Episodes of 3 env steps on reach end long before the arm gets near the goal: every group fails and is dropped.
    const config = tinyConfig(['advantages.type=grpo', 'advantages.grpo_filter=true', 'env.max_episode_steps=3', 'actor_lr=1e-2', 'critic_lr=1e-2', 'ppo.bc_coef=0.5']);
    const env = new InThreadBatchEnv(mj, { task: config.task, numEnvs: config.num_envs, recordEpisodes: false, maxEpisodeSteps: 3 });
    opened.push(env);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const run = new Run({ learner: new FlowLearner(bundle, config), env, config, clock: frozenClock });
    try {
      const before = await weightSnapshot(bundle);
      const record = await run.step();
      expect(record['charts/success_rate']).toBe(0);
      expect(record['advantages/grpo_kept_fraction']).toBe(0);
      expect(record['losses/policy']).toBeUndefined();
      expect(record['losses/nonfinite_skips']).toBe(0);
      for (const [key, value] of Object.entries(record)) expect(Number.isFinite(value), key).toBe(true);
      expect(changedParameters(before, await weightSnapshot(bundle))).toEqual([]);
      expect((await run.progress()).actor.step).toBe(0);
    } finally {
      run.dispose();
      bundle.policy.dispose();
    }
  });

  it('carries the non-finite skip streak across iterations and pauses with a TrainingError, weights untouched', async () => {
    // A NaN in the value head makes every value, advantage and loss NaN: each minibatch is skipped.
    const config = tinyConfig(['actor_lr=1e-3', 'critic_lr=1e-3']);
    const env = envFor(config);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const run = new Run({ learner: new FlowLearner(bundle, config), env, config, clock: frozenClock });
    try {
      const weights = await bundle.policy.getWeights();
      weights.get('value.output.bias')!.data[0] = NaN;
      bundle.policy.setWeights(weights);
      const before = await weightSnapshot(bundle);
      // 8 decisions in minibatches of 4: two skips in the first iteration, the third pauses the run.
      const first = await run.step();
      expect(first['losses/nonfinite_skips']).toBe(2);
      expect(first['losses/ratio_mean']).toBeUndefined();
      const error = await run.step().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TrainingError);
      expect((error as Error).message).toContain('training paused');
      expect(changedParameters(before, await weightSnapshot(bundle))).toEqual([]);
      expect((await run.progress()).actor.step).toBe(0);
    } finally {
      run.dispose();
      bundle.policy.dispose();
    }
  });
});
