import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { reduceLogProb } from '../flow/logprob-reduce';
import { createRng } from '../random';
import { normalizeStacked, sampleForObs } from './policy-bundle';
import { logProbSliceFromConfig, samplerOptionsAt } from './policy-setup';
import { sampleDecision, valuesForObs } from './rollout-policy';
import { bitsOf, freshBundle, tinyConfig } from './fixtures/test-support';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const [OBS_DIM, ACTION_DIM, ENVS] = [3, 4, 5];

function rawObs(seed: number, nObsSteps: number): Float32Array {
  return createRng(seed).fillNormal(new Float32Array(ENVS * nObsSteps * OBS_DIM));
}

describe('rollout policy calls', () => {
  it('a decision downloads the reduced log-prob, equal to reducing the per-element download (token, action, chunk; hybrid, joint)', async () => {
    for (const mode of ['hybrid', 'joint'] as const) {
      for (const type of ['token', 'action', 'chunk'] as const) {
        const config = tinyConfig([`noise.mode=${mode}`, `noise.logprob_type=${type}`]);
        const bundle = freshBundle(config, OBS_DIM, ACTION_DIM);
        try {
          const { horizon, actionDim } = bundle.policy.options;
          const obs = normalizeStacked(bundle, rawObs(2, config.policy.n_obs_steps));
          const sampler = samplerOptionsAt(config, 0, 'train');
          const slice = logProbSliceFromConfig(config, ACTION_DIM);
          const old = await sampleForObs(bundle, obs, sampler, createRng(6));
          const reducedTensor = tf.tidy(() => reduceLogProb(tf.tensor3d(old.logProbs, [ENVS, horizon, actionDim]), slice));
          const oldReduced = (await reducedTensor.data()) as Float32Array;
          reducedTensor.dispose();
          const before = tf.memory().numTensors;
          const sample = await sampleDecision(bundle, obs, sampler, slice, createRng(6));
          expect(tf.memory().numTensors).toBe(before);
          expect([...bitsOf(sample.logProbs)]).toEqual([...bitsOf(oldReduced)]);
          expect([...bitsOf(sample.chains)]).toEqual([...bitsOf(old.chains)]);
          expect([...bitsOf(sample.values)]).toEqual([...bitsOf(old.values)]);
        } finally {
          bundle.policy.dispose();
        }
      }
    }
  });

  it('bootstrap values equal the old eval-chain values bit for bit (value_on obs and expert)', async () => {
    for (const valueOn of ['obs', 'expert'] as const) {
      const config = tinyConfig([`policy.value_on=${valueOn}`, 'policy.n_obs_steps=2']);
      const bundle = freshBundle(config, OBS_DIM, ACTION_DIM, 4);
      try {
        const obs = normalizeStacked(bundle, rawObs(3, 2));
        const valueSampler = { ...samplerOptionsAt(config, 0, 'train'), method: 'ode', mode: 'eval' } as const;
        const oldRng = createRng(12);
        const old = await sampleForObs(bundle, obs, valueSampler, oldRng);
        const rng = createRng(12);
        const before = tf.memory().numTensors;
        const values = await valuesForObs(bundle, obs, valueSampler, rng);
        expect(tf.memory().numTensors).toBe(before);
        expect(values.length).toBe(ENVS);
        expect([...bitsOf(values)]).toEqual([...bitsOf(old.values)]);
        // The stream after the call: unchanged for expert (it draws the same x_0), not advanced for obs.
        expect(rng.uniform()).toBe((valueOn === 'expert' ? oldRng : createRng(12)).uniform());
      } finally {
        bundle.policy.dispose();
      }
    }
  });
});
