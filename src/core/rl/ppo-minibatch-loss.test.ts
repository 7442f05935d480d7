import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import type { BatchEnv } from '../envs/batch-env';
import { createRng } from '../random';
import { copyPolicy } from './bc-reference';
import { collectRollout } from './collect-rollout';
import { computeAdvantages } from './compute-advantages';
import { freshBundle, openChunkEnv, tinyConfig } from './fixtures/test-support';
import { shuffledMinibatches } from './minibatches';
import { ObsHistory } from './obs-history';
import { PhaseTimes } from './phase-times';
import { encoderFrozen, logProbSliceFromConfig, samplerOptionsAt } from './policy-setup';
import { readMetrics } from './ppo-loss-result';
import { bcTarget, ppoMinibatchLoss, ppoMinibatchLossOptions, ppoRowTable, type PpoMinibatch } from './ppo-minibatch-loss';

let env: BatchEnv;
beforeAll(async () => {
  await useNodeBackend('wasm');
  env = openChunkEnv(await loadMujocoNode(), tinyConfig());
});
afterAll(async () => {
  await env.dispose();
});

/** A real reach rollout with a fresh tiny policy, its first minibatch as tensors, and the loss options. */
async function firstMinibatch(overrides: string[]) {
  const config = tinyConfig(overrides);
  const bundle = freshBundle(config, env.obsDim, env.actionDim);
  const history = new ObsHistory(env.numEnvs, env.obsDim, config.policy.n_obs_steps);
  history.reset(await env.reset([11, 12, 13, 14]));
  await env.drainEpisodes();
  const sampler = samplerOptionsAt(config, 0, 'train');
  const slice = logProbSliceFromConfig(config, env.actionDim);
  const { buffer } = await collectRollout(bundle, env, { history }, config, sampler, slice, createRng(config.seed), new PhaseTimes(() => 0));
  const { advantages, returns } = computeAdvantages(buffer, config.advantages);
  const table = ppoRowTable(buffer, advantages, returns, bundle.policy, slice);
  const [minibatch] = shuffledMinibatches(table, buffer.mask, createRng(1), config.ppo.minibatch_size);
  const batch: PpoMinibatch = minibatch.tensors();
  const options = (criticOnly: boolean) => ppoMinibatchLossOptions(config, sampler, slice, criticOnly, encoderFrozen(config));
  return { config, policy: bundle.policy, batch, options, rows: minibatch.rows.length };
}

async function lossAndMetrics(result: ReturnType<typeof ppoMinibatchLoss>) {
  const loss = (await result.loss.data())[0];
  result.loss.dispose();
  return { loss, metrics: await readMetrics(result.metrics) };
}

describe('ppoMinibatchLoss on a real reach minibatch', () => {
  it('shapes the minibatch [M, ...] per field, and is total = policy + value_coef·value − entropy_coef·entropy with ratio 1 at the rollout weights', async () => {
    const { config, policy, batch, options, rows } = await firstMinibatch(['ppo.value_coef=0.5', 'ppo.entropy_coef=0.01', 'noise.logprob_type=token']);
    try {
      const { horizon, actionDim } = policy.options;
      const { denoise_steps: steps, n_action_steps: executed } = config.policy;
      expect(batch.chains.shape).toEqual([rows, steps + 1, horizon, actionDim]);
      expect(batch.denoise.shape).toEqual([rows, steps]);
      expect(batch.oldLogProbs.shape).toEqual([rows, executed, env.actionDim]);
      expect([batch.advantages.shape, batch.returns.shape, batch.oldValues.shape]).toEqual([[rows], [rows], [rows]]);
      const tensors = tf.memory().numTensors;
      // The intermediates go with the tidy; the loss and the metrics are all that is left.
      const { loss, metrics } = await lossAndMetrics(tf.tidy(() => ppoMinibatchLoss(policy, batch, undefined, options(false))));
      expect(tf.memory().numTensors).toBe(tensors);
      expect(Object.keys(metrics)).toEqual(['losses/value', 'losses/entropy', 'losses/policy', 'losses/approx_kl', 'losses/clip_fraction', 'losses/ratio_mean', 'losses/ratio_max']);
      expect(Math.abs(metrics['losses/ratio_max']! - 1)).toBeLessThan(1e-5);
      expect(metrics['losses/clip_fraction']).toBe(0);
      expect(metrics['losses/value']).toBeGreaterThan(0);
      expect(loss).toBeCloseTo(metrics['losses/policy']! + 0.5 * metrics['losses/value']! - 0.01 * metrics['losses/entropy']!, 5);
    } finally {
      tf.dispose(Object.values(batch));
      policy.dispose();
    }
  });

  it('ReinFlow\'s clamps reach the objective: clamped chains reproduce their log-probs, and the loss clamps the log-probs', async () => {
    const c = 0.3;
    const { config, policy, batch, options } = await firstMinibatch([
      `policy.denoised_clamp=${c}`, 'ppo.logprob_clamp=true', 'ppo.logprob_min=-1', 'ppo.logprob_max=1', 'noise.logprob_type=mean', 'ppo.bc_coef=1',
    ]);
    const reference = copyPolicy(policy);
    const target = bcTarget(reference, createRng(3), batch.state, options(false));
    try {
      expect(options(false).logProb.denoisedClamp).toBe(c);
      expect(options(false).actor.logProbRange).toEqual({ min: -1, max: 1 });
      // Every ODE step's output is its clamped mean, so it lies in [−c, c]; x_0 ~ N(0, I) makes the clamp bite.
      const steps = config.policy.denoise_steps;
      const [chains, inds] = [await batch.chains.data(), await batch.denoise.data()];
      const elementSize = chains.length / (batch.chains.shape[0] * (steps + 1));
      let atBound = 0;
      for (let row = 0; row < batch.chains.shape[0]; row++) {
        for (let step = 0; step < steps; step++) {
          if (inds[row * steps + step] === 1) continue;
          const start = (row * (steps + 1) + step + 1) * elementSize;
          for (const value of chains.subarray(start, start + elementSize)) {
            expect(Math.abs(value)).toBeLessThanOrEqual(c + 1e-6);
            if (Math.abs(value) > c - 1e-6) atBound++;
          }
        }
      }
      expect(atBound).toBeGreaterThan(0);
      // The reference's deterministic chunk is clamped as well.
      expect(Math.max(...Array.from(await target.actions.data(), Math.abs))).toBeLessThanOrEqual(c + 1e-6);
      // Recomputed with the same clamp at the rollout weights: ratio 1, nothing clipped, no BC distance.
      const { metrics } = await lossAndMetrics(ppoMinibatchLoss(policy, batch, target, options(false)));
      expect(Math.abs(metrics['losses/ratio_max']! - 1)).toBeLessThan(1e-5);
      expect(metrics['losses/clip_fraction']).toBe(0);
      expect(metrics['losses/bc']).toBe(0);
    } finally {
      tf.dispose([target.x0, target.actions, ...Object.values(batch)]);
      reference.dispose();
      policy.dispose();
    }
  });

  it('counts the critic alone during warm-up', async () => {
    const { policy, batch, options } = await firstMinibatch(['ppo.value_coef=0.5', 'ppo.entropy_coef=0.01']);
    try {
      const { loss, metrics } = await lossAndMetrics(ppoMinibatchLoss(policy, batch, undefined, options(true)));
      expect(loss).toBeCloseTo(0.5 * metrics['losses/value']!, 6);
    } finally {
      tf.dispose(Object.values(batch));
      policy.dispose();
    }
  });

  it('adds bc_coef × the BC regularizer, 0 while the policy is its reference', async () => {
    const { policy, batch, options } = await firstMinibatch(['ppo.bc_coef=0.5']);
    const reference = copyPolicy(policy);
    const target = bcTarget(reference, createRng(3), batch.state, options(false));
    try {
      expect(target.x0.shape).toEqual([batch.state.shape[0], policy.options.horizon, policy.options.actionDim]);
      const withBc = await lossAndMetrics(ppoMinibatchLoss(policy, batch, target, options(false)));
      const without = await lossAndMetrics(ppoMinibatchLoss(policy, batch, undefined, options(false)));
      expect(withBc.metrics['losses/bc']).toBe(0);
      expect(without.metrics).not.toHaveProperty('losses/bc');
      expect(withBc.loss).toBeCloseTo(without.loss, 6);
    } finally {
      tf.dispose([target.x0, target.actions, ...Object.values(batch)]);
      reference.dispose();
      policy.dispose();
    }
  });
});
