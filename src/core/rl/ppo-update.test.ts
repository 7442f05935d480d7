import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import type { RunConfig } from '../config';
import type { Mujoco } from '../envs/mujoco-types';
import { TrainingError } from '../errors';
import { createRng } from '../random';
import { collectExpertDemos } from '../envs/expert-rollout';
import { NamedAdam } from './adam';
import { copyPolicy } from './bc-reference';
import { buildBcDataset } from './bc-dataset';
import type { BatchEnv } from '../envs/batch-env';
import { PhaseTimes } from './phase-times';
import { collectRollout } from './collect-rollout';
import { computeAdvantages } from './compute-advantages';
import { ObsHistory } from './obs-history';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import { logProbSliceFromConfig, samplerOptionsAt } from './policy-setup';
import { ppoUpdate, type PpoUpdateResult } from './ppo-update';
import { pretrainPolicy } from './pretrain';
import type { RolloutBuffer } from './rollout-buffer';
import { changedParameters, freshBundle, liveTensors, openChunkEnv, tinyConfig, weightSnapshot } from './fixtures/test-support';

let mj: Mujoco;
let env: BatchEnv;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
  env = openChunkEnv(mj, tinyConfig());
});
afterAll(async () => {
  await env.dispose();
});

/** One real rollout on reach with a fresh tiny policy, then its advantages. */
async function rollout(config: RunConfig, bundle: PolicyBundle): Promise<{ buffer: RolloutBuffer; advantages: Float32Array; returns: Float32Array }> {
  const history = new ObsHistory(env.numEnvs, env.obsDim, config.policy.n_obs_steps);
  history.reset(await env.reset([11, 12, 13, 14]));
  await env.drainEpisodes();
  const sampler = samplerOptionsAt(config, 0, 'train');
  const slice = logProbSliceFromConfig(config, env.actionDim);
  const { buffer } = await collectRollout(bundle, env, { history }, config, sampler, slice, createRng(config.seed), new PhaseTimes(() => 0));
  return { buffer, ...computeAdvantages(buffer, config.advantages) };
}

interface UpdateParts {
  config: RunConfig;
  bundle: PolicyBundle;
  buffer: RolloutBuffer;
  advantages: Float32Array;
  returns: Float32Array;
  actorOptimizer: NamedAdam;
  criticOptimizer: NamedAdam;
  skipStreak: { current: number };
}

function update(parts: UpdateParts, rngSeed = 5, criticOnly = false): Promise<PpoUpdateResult> {
  const { config } = parts;
  return ppoUpdate({
    policy: parts.bundle.policy,
    buffer: parts.buffer,
    advantages: parts.advantages,
    returns: parts.returns,
    sampler: samplerOptionsAt(config, 0, 'train'),
    slice: logProbSliceFromConfig(config, env.actionDim),
    config,
    actorOptimizer: parts.actorOptimizer,
    criticOptimizer: parts.criticOptimizer,
    actorLr: criticOnly ? 0 : config.actor_lr,
    criticLr: config.critic_lr,
    criticOnly,
    rng: createRng(rngSeed),
    skipStreak: parts.skipStreak,
  });
}

async function prepare(overrides: string[], edit: (config: RunConfig) => RunConfig = (config) => config): Promise<UpdateParts> {
  const config = edit(tinyConfig(overrides));
  const bundle = freshBundle(config, env.obsDim, env.actionDim);
  const data = await rollout(config, bundle);
  return { config, bundle, ...data, actorOptimizer: new NamedAdam(), criticOptimizer: new NamedAdam(), skipStreak: { current: 0 } };
}

function release(parts: Pick<UpdateParts, 'actorOptimizer' | 'criticOptimizer' | 'bundle'>): void {
  parts.actorOptimizer.dispose();
  parts.criticOptimizer.dispose();
  parts.bundle.policy.dispose();
}

describe('ppoUpdate through a real reach rollout', () => {
  // DESIGN.md §3 invariant: at lr = 0 the recomputed log-prob of every stored chain equals
  // the stored one, so r = 1 and nothing is clipped, for every method, reduction and mode.
  const cases: [method: string, logprobType: string, mode: string][] = [];
  for (const method of ['sde', 'cps', 'noise']) {
    for (const logprobType of ['token', 'action', 'chunk']) for (const mode of ['hybrid', 'joint']) cases.push([method, logprobType, mode]);
  }

  it.each(cases)('method %s, logprob %s, %s mode: ratio 1 and clip fraction 0 at lr = 0', async (method, logprobType, mode) => {
    // The run config refuses cps × joint (its last step has std 0), but the sampler and the
    // log-prob support it (the last step stays ODE), so that case sets the mode after validation.
    const parts = await prepare(
      [`noise.method=${method}`, `noise.logprob_type=${logprobType}`, 'actor_lr=0', 'critic_lr=0', 'ppo.epochs=2'],
      (config) => ({ ...config, noise: { ...config.noise, mode: mode as RunConfig['noise']['mode'] } }),
    );
    try {
      const before = await weightSnapshot(parts.bundle);
      const result = await update(parts);
      expect(result.applied).toBe(4);
      expect(result.nonfiniteSkips).toBe(0);
      expect(result.metrics['losses/clip_fraction']).toBe(0);
      expect(Math.abs(Number(result.metrics['losses/ratio_mean']) - 1)).toBeLessThan(1e-5);
      expect(Math.abs(Number(result.metrics['losses/ratio_max']) - 1)).toBeLessThan(1e-5);
      expect(Math.abs(Number(result.metrics['losses/approx_kl']))).toBeLessThan(1e-6);
      // lr = 0 leaves every weight as it was, so the second epoch sees the same ratio.
      expect(changedParameters(before, await weightSnapshot(parts.bundle))).toEqual([]);
    } finally {
      release(parts);
    }
  });
});

describe('ppoUpdate with a briefly BC-trained policy', () => {
  it('keeps the lr-0 ratio invariant once the policy is no longer near its init', async () => {
    const config = tinyConfig(['actor_lr=0', 'critic_lr=0', 'noise.method=sde', 'noise.logprob_type=token']);
    const demos = collectExpertDemos(mj, { task: 'reach', episodes: 2, seed: 0, noise: 0.2 });
    const dataset = buildBcDataset(demos, config.policy.n_obs_steps, config.policy.horizon);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const trained: PolicyBundle = { policy: bundle.policy, obsNormalizer: dataset.obsNormalizer, actionNormalizer: dataset.actionNormalizer };
    const parts = { config, bundle: trained, actorOptimizer: new NamedAdam(), criticOptimizer: new NamedAdam(), skipStreak: { current: 0 } };
    try {
      const { finalLoss } = await pretrainPolicy(trained.policy, dataset, { steps: 60, batchSize: 32, learningRate: 3e-3, emaDecay: 0, shortcutFraction: 0.25, seed: 2, logEvery: 60 });
      expect(Number.isFinite(finalLoss)).toBe(true);
      const result = await update({ ...parts, ...(await rollout(config, trained)) });
      expect(result.applied).toBe(2);
      expect(result.metrics['losses/clip_fraction']).toBe(0);
      expect(Math.abs(Number(result.metrics['losses/ratio_mean']) - 1)).toBeLessThan(1e-5);
      expect(Math.abs(Number(result.metrics['losses/ratio_max']) - 1)).toBeLessThan(1e-5);
    } finally {
      release(parts);
    }
  });
});

describe('ppoUpdate training control', () => {
  it('awaits the pause point before every minibatch, and no weight moves while it holds', async () => {
    // tinyConfig: 4 envs × 2 decisions = 8 entries, minibatch 4 → 2 minibatches per epoch; 2 epochs → 4 pause points.
    const parts = await prepare(['actor_lr=1e-3', 'critic_lr=1e-3', 'ppo.epochs=2']);
    try {
      const snapshots: Map<string, Float32Array>[] = [];
      let resume: () => void = () => {};
      let held = 0;
      const running = ppoUpdate({
        policy: parts.bundle.policy, buffer: parts.buffer, advantages: parts.advantages, returns: parts.returns,
        sampler: samplerOptionsAt(parts.config, 0, 'train'), slice: logProbSliceFromConfig(parts.config, env.actionDim),
        config: parts.config, actorOptimizer: parts.actorOptimizer, criticOptimizer: parts.criticOptimizer,
        actorLr: parts.config.actor_lr, criticLr: parts.config.critic_lr, criticOnly: false, rng: createRng(5), skipStreak: parts.skipStreak,
        beforeMinibatch: async () => {
          held++;
          snapshots.push(await weightSnapshot(parts.bundle));
          // The third pause holds until released: the update must not move on by itself.
          if (held === 3) await new Promise<void>((resolve) => { resume = resolve; });
        },
      });
      while (held < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      const whilePaused = await weightSnapshot(parts.bundle);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(changedParameters(whilePaused, await weightSnapshot(parts.bundle))).toEqual([]);
      expect(parts.actorOptimizer.step).toBe(2);
      resume();
      const result = await running;
      expect(held).toBe(4);
      expect(result.applied).toBe(4);
      // Each minibatch between two pause points changed the weights.
      expect(changedParameters(snapshots[0], snapshots[1]).length).toBeGreaterThan(0);
      expect(changedParameters(snapshots[2], await weightSnapshot(parts.bundle)).length).toBeGreaterThan(0);
    } finally {
      release(parts);
    }
  });

  it('critic warm-up: only value.* parameters move and the actor optimizer takes no step', async () => {
    const parts = await prepare(['actor_lr=1e-3', 'critic_lr=1e-3']);
    try {
      const before = await weightSnapshot(parts.bundle);
      const result = await update(parts, 5, true);
      expect(result.applied).toBe(2);
      const changed = changedParameters(before, await weightSnapshot(parts.bundle));
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.every((name) => name.startsWith('value.'))).toBe(true);
      expect(parts.actorOptimizer.step).toBe(0);
      expect(parts.criticOptimizer.step).toBe(2);
    } finally {
      release(parts);
    }
  });

  it('the noise head trains only with method noise', async () => {
    for (const method of ['sde', 'noise']) {
      const parts = await prepare([`noise.method=${method}`, 'actor_lr=1e-2', 'critic_lr=1e-3']);
      try {
        const before = await weightSnapshot(parts.bundle);
        await update(parts);
        const changed = changedParameters(before, await weightSnapshot(parts.bundle));
        expect(changed.some((name) => name.startsWith('noise_head.')), method).toBe(method === 'noise');
        expect(changed.some((name) => name.startsWith('velocity.'))).toBe(true);
      } finally {
        release(parts);
      }
    }
  });

  it('value_on expert (V from velocity-net features): ratio 1 at lr = 0', async () => {
    const atZero = await prepare(['policy.value_on=expert', 'actor_lr=0', 'critic_lr=0']);
    try {
      const result = await update(atZero);
      expect(result.metrics['losses/clip_fraction']).toBe(0);
      expect(Math.abs(Number(result.metrics['losses/ratio_max']) - 1)).toBeLessThan(1e-5);
    } finally {
      release(atZero);
    }
  });

  it('target_kl stops the epoch loop once the mean approx_kl so far exceeds it', async () => {
    const parts = await prepare(['actor_lr=1e-2', 'critic_lr=1e-3', 'ppo.epochs=4', 'ppo.target_kl=1e-9']);
    try {
      const result = await update(parts);
      // 2 minibatches per epoch; the weights move after the first, so the KL passes 1e-9 within epoch 1.
      expect(result.metrics['train/early_stop_epoch']).toBe(1);
      expect(result.applied).toBeLessThanOrEqual(2);
      expect(Number(result.metrics['losses/approx_kl'])).toBeGreaterThan(0);
    } finally {
      release(parts);
    }
  });
});

describe('ppoUpdate non-finite guard', () => {
  // One minibatch per update, so a single poisoned entry poisons the whole update.
  const overrides = ['actor_lr=1e-3', 'critic_lr=1e-3', 'ppo.minibatch_size=8', 'ppo.epochs=1'];

  it.each([
    ['a NaN advantage', (parts: UpdateParts) => void (parts.advantages[5] = NaN)],
    ['a NaN stored observation', (parts: UpdateParts) => void (parts.buffer.obs[3] = NaN)],
    ['a NaN stored old log-prob', (parts: UpdateParts) => void (parts.buffer.oldLogProbs[0] = NaN)],
    ['an infinite return', (parts: UpdateParts) => void (parts.returns[2] = Infinity)],
  ])('%s skips the update, counts it and leaves every weight and moment unchanged', async (_label, poison) => {
    const parts = await prepare(overrides);
    try {
      poison(parts);
      const before = await weightSnapshot(parts.bundle);
      const result = await update(parts);
      expect(result.nonfiniteSkips).toBe(1);
      expect(result.applied).toBe(0);
      expect(result.metrics['losses/nonfinite_skips']).toBe(1);
      expect(parts.skipStreak.current).toBe(1);
      expect(changedParameters(before, await weightSnapshot(parts.bundle))).toEqual([]);
      expect(parts.actorOptimizer.step).toBe(0);
      expect((await parts.actorOptimizer.getState()).slots.size).toBe(0);
      expect((await parts.criticOptimizer.getState()).slots.size).toBe(0);
    } finally {
      release(parts);
    }
  });

  it('the same update without poison changes the weights (the guard, not a zero lr, kept them)', async () => {
    const parts = await prepare(overrides);
    try {
      const before = await weightSnapshot(parts.bundle);
      const result = await update(parts);
      expect(result.applied).toBe(1);
      expect(result.metrics['losses/nonfinite_skips']).toBe(0);
      expect(changedParameters(before, await weightSnapshot(parts.bundle)).length).toBeGreaterThan(0);
    } finally {
      release(parts);
    }
  });

  it('pauses training with a TrainingError after ppo.max_nonfinite_skips skips in a row; a good update resets the streak', async () => {
    const parts = await prepare(overrides);
    try {
      expect(parts.config.ppo.max_nonfinite_skips).toBe(3);
      const clean = parts.advantages.slice();
      parts.advantages[0] = NaN;
      await update(parts);
      await update(parts);
      expect(parts.skipStreak.current).toBe(2);
      // A finite update in between starts the count again.
      parts.advantages.set(clean);
      expect((await update(parts)).applied).toBe(1);
      expect(parts.skipStreak.current).toBe(0);
      parts.advantages[0] = NaN;
      await update(parts);
      await update(parts);
      const before = await weightSnapshot(parts.bundle);
      const error = await update(parts).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TrainingError);
      expect((error as Error).message).toMatch(/^3 updates in a row had a non-finite loss or gradient, so training paused/);
      expect(parts.skipStreak.current).toBe(3);
      expect(changedParameters(before, await weightSnapshot(parts.bundle))).toEqual([]);
    } finally {
      release(parts);
    }
  });

  it('ppo.max_nonfinite_skips = 0 never pauses', async () => {
    const parts = await prepare([...overrides, 'ppo.max_nonfinite_skips=0']);
    try {
      parts.advantages[1] = NaN;
      for (let attempt = 0; attempt < 4; attempt++) expect((await update(parts)).nonfiniteSkips).toBe(1);
      expect(parts.skipStreak.current).toBe(4);
    } finally {
      release(parts);
    }
  });
});

describe('ppoUpdate with the BC regularizer (ppo.bc_coef)', () => {
  function updateWithReference(parts: UpdateParts, reference: FlowPolicy | undefined, criticOnly = false): Promise<PpoUpdateResult> {
    const { config } = parts;
    return ppoUpdate({
      policy: parts.bundle.policy, buffer: parts.buffer, advantages: parts.advantages, returns: parts.returns,
      sampler: samplerOptionsAt(config, 0, 'train'), slice: logProbSliceFromConfig(config, env.actionDim), config,
      actorOptimizer: parts.actorOptimizer, criticOptimizer: parts.criticOptimizer, actorLr: criticOnly ? 0 : config.actor_lr,
      criticLr: config.critic_lr, criticOnly, rng: createRng(5), skipStreak: parts.skipStreak,
      bc: reference && { reference, rng: createRng(6) },
    });
  }

  it('logs losses/bc = 0 while the policy is its reference (lr = 0), and the ratio stays 1', async () => {
    const parts = await prepare(['ppo.bc_coef=0.5', 'actor_lr=0', 'critic_lr=0', 'ppo.epochs=2']);
    const reference = copyPolicy(parts.bundle.policy);
    try {
      const result = await updateWithReference(parts, reference);
      expect(result.applied).toBe(4);
      // Same weights, same x_0, same ops: the two chunks are bit-identical.
      expect(result.metrics['losses/bc']).toBe(0);
      expect(result.metrics['losses/clip_fraction']).toBe(0);
      expect(Math.abs(Number(result.metrics['losses/ratio_max']) - 1)).toBeLessThan(1e-5);
    } finally {
      reference.dispose();
      release(parts);
    }
  });

  it('grows losses/bc as the policy leaves its reference, keeps tf.memory().numTensors flat, and leaves the reference as it was', async () => {
    const parts = await prepare(['ppo.bc_coef=0.5', 'actor_lr=1e-2', 'critic_lr=1e-3', 'ppo.epochs=2']);
    const reference = copyPolicy(parts.bundle.policy);
    try {
      const referenceBefore = await reference.getWeights();
      await updateWithReference(parts, reference);
      const afterFirst = liveTensors();
      const second = await updateWithReference(parts, reference);
      expect(liveTensors()).toBe(afterFirst);
      const third = await updateWithReference(parts, reference);
      expect(liveTensors()).toBe(afterFirst);
      expect(Number(second.metrics['losses/bc'])).toBeGreaterThan(0);
      expect(Number.isFinite(third.metrics['losses/bc'])).toBe(true);
      const referenceAfter = await reference.getWeights();
      for (const [name, entry] of referenceBefore) expect(Array.from(referenceAfter.get(name)!.data), name).toEqual(Array.from(entry.data));
    } finally {
      reference.dispose();
      release(parts);
    }
  });

  it('computes no BC term during critic warm-up, and refuses ppo.bc_coef > 0 without a reference', async () => {
    const parts = await prepare(['ppo.bc_coef=0.5', 'actor_lr=1e-3', 'critic_lr=1e-3']);
    const reference = copyPolicy(parts.bundle.policy);
    try {
      const warmup = await updateWithReference(parts, reference, true);
      expect(warmup.applied).toBe(2);
      expect(warmup.metrics['losses/bc']).toBeUndefined();
      await expect(updateWithReference(parts, undefined)).rejects.toThrow(
        'ppo.bc_coef (0.5) needs the frozen reference policy of the run; pass it to the update or set ppo.bc_coef=0',
      );
    } finally {
      reference.dispose();
      release(parts);
    }
  });
});

describe('ppoUpdate with every decision masked out (GRPO filter dropped every group)', () => {
  it('runs no minibatch: no NaN metric, no weight or optimizer moment moves, no tensor is left behind', async () => {
    const parts = await prepare(['actor_lr=1e-2', 'critic_lr=1e-2', 'ppo.bc_coef=0.5']);
    const reference = copyPolicy(parts.bundle.policy);
    try {
      const before = await weightSnapshot(parts.bundle);
      const tensorsBefore = liveTensors();
      const result = await ppoUpdate({
        policy: parts.bundle.policy, buffer: parts.buffer, advantages: new Float32Array(parts.advantages.length), returns: parts.returns,
        mask: new Float32Array(parts.buffer.mask.length), sampler: samplerOptionsAt(parts.config, 0, 'train'),
        slice: logProbSliceFromConfig(parts.config, env.actionDim), config: parts.config, actorOptimizer: parts.actorOptimizer,
        criticOptimizer: parts.criticOptimizer, actorLr: parts.config.actor_lr, criticLr: parts.config.critic_lr, criticOnly: false,
        rng: createRng(5), skipStreak: parts.skipStreak, bc: { reference, rng: createRng(6) },
      });
      expect(result.applied).toBe(0);
      expect(result.nonfiniteSkips).toBe(0);
      expect(result.metrics).toEqual({ 'losses/nonfinite_skips': 0, 'train/early_stop_epoch': 1 });
      expect(liveTensors()).toBe(tensorsBefore);
      expect(changedParameters(before, await weightSnapshot(parts.bundle))).toEqual([]);
      expect(parts.actorOptimizer.step).toBe(0);
      expect(parts.skipStreak.current).toBe(0);
    } finally {
      reference.dispose();
      release(parts);
    }
  });
});
