import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { buildDenoiseMask } from '../flow/sampling-options';
import { createRng } from '../random';
import { encoderFrozen, logProbSliceFromConfig, policyOptionsFromConfig, samplerOptionsAt } from './policy-setup';
import { normalizeStacked, sampleForObs } from './policy-bundle';
import { freshBundle, tinyConfig } from './fixtures/test-support';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** level 0.5 → level_min 0.1 and σ_max 0.16 → σ_min 0.08 over 1000 env steps. */
const decaying = (decay: string, extra: string[] = []) =>
  tinyConfig([`noise.decay=${decay}`, 'noise.decay_steps=1000', 'noise.level=0.5', 'noise.level_min=0.1', 'noise.std_max=0.16', 'noise.std_min=0.08', ...extra]);

describe('samplerOptionsAt', () => {
  it("'eval' is all-ODE whatever the training method and mode", () => {
    for (const [method, mode] of [['sde', 'joint'], ['noise', 'hybrid'], ['cps', 'hybrid']]) {
      const config = tinyConfig([`noise.method=${method}`, `noise.mode=${mode}`]);
      const options = samplerOptionsAt(config, 0, 'eval');
      expect(options.method).toBe('ode');
      expect(options.mode).toBe('eval');
      expect(options.steps).toBe(3);
      expect([...buildDenoiseMask(options, 5, createRng(1))].every((flag) => flag === 0)).toBe(true);
    }
  });

  it("'train' follows the config and the schedule at the given env step", () => {
    const options = samplerOptionsAt(decaying('linear', ['noise.method=cps', 'noise.mode=hybrid']), 250, 'train');
    expect(options.method).toBe('cps');
    expect(options.mode).toBe('hybrid');
    expect(options.level).toBeCloseTo(0.4, 12);
    expect(options.bounds?.stdMin).toBe(0.08);
    expect(options.bounds?.stdMax).toBeCloseTo(0.14, 12);
  });

  it('an eval sample of a fresh policy has no stochastic step, no log-prob and no noise', async () => {
    const config = tinyConfig(['noise.method=sde', 'noise.mode=joint']);
    const bundle = freshBundle(config, 5, 4);
    const tensorsBefore = tf.memory().numTensors;
    try {
      const obs = normalizeStacked(bundle, Float32Array.from({ length: 3 * 10 }, (_, index) => Math.sin(index)));
      const sample = await sampleForObs(bundle, obs, samplerOptionsAt(config, 0, 'eval'), createRng(4));
      expect([...sample.denoiseInds].every((flag) => flag === 0)).toBe(true);
      expect([...sample.logProbs].every((value) => value === 0)).toBe(true);
      expect([...sample.stds].every((value) => value === 0)).toBe(true);
      // With only x_0 drawn, the same seed gives the same chain.
      const again = await sampleForObs(bundle, obs, samplerOptionsAt(config, 0, 'eval'), createRng(4));
      expect(again.chains).toEqual(sample.chains);
      expect(tf.memory().numTensors).toBe(tensorsBefore);
    } finally {
      bundle.policy.dispose();
    }
  });
});

describe('logProbSliceFromConfig and policyOptionsFromConfig', () => {
  it('the slice is the executed steps and the env action dims, reduced by logprob_type', () => {
    expect(logProbSliceFromConfig(tinyConfig(['noise.logprob_type=token']), 4)).toEqual({ logprobType: 'token', nActionSteps: 2, envActionDim: 4 });
  });

  it('the architecture follows the config', () => {
    const options = policyOptionsFromConfig(tinyConfig(), 13, 4);
    expect(options).toMatchObject({ obsDim: 13, actionDim: 4, nObsSteps: 2, horizon: 4, velocityHidden: [32, 32], encoderHidden: [32], valueHidden: [32], noiseHidden: [16] });
  });

  it('DiT-X and point clouds map onto the policy options; point clouds split the frame into points and proprioception', () => {
    const ditx = policyOptionsFromConfig(tinyConfig(['policy.velocity_net=ditx', 'policy.ditx_dim=32', 'policy.ditx_depth=2', 'policy.ditx_heads=4']), 13, 4);
    expect(ditx).toMatchObject({ velocityNet: 'ditx', ditxDim: 32, ditxDepth: 2, ditxHeads: 4, obsEncoder: 'state', obsDim: 13, numPoints: 0 });
    // 16 points × 3 + 15 proprioception values = 63 per frame.
    const cloud = policyOptionsFromConfig(tinyConfig(['env.obs_type=pointcloud', 'env.num_points=16']), 63, 4);
    expect(cloud).toMatchObject({ obsEncoder: 'pointcloud', numPoints: 16, obsDim: 15 });
    expect(() => policyOptionsFromConfig(tinyConfig(['env.obs_type=pointcloud', 'env.num_points=32']), 63, 4)).toThrow(/cannot hold env.num_points=32 points/);
  });

  it('freeze_encoder: auto freezes point-cloud encoders only; true and false decide for both', () => {
    expect(encoderFrozen(tinyConfig([]))).toBe(false);
    expect(encoderFrozen(tinyConfig(['env.obs_type=pointcloud']))).toBe(true);
    expect(encoderFrozen(tinyConfig(['env.obs_type=pointcloud', 'policy.freeze_encoder=false']))).toBe(false);
    expect(encoderFrozen(tinyConfig(['policy.freeze_encoder=true']))).toBe(true);
  });
});
