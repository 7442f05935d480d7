import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { FlowPolicy } from '../policy/flow-policy';
import { policyOptionsFromConfig } from '../rl/policy-setup';
import { envShapes } from '../run/open-checkpoint';
import { tinyConfig } from '../rl/fixtures/test-support';
import { measurePolicySpeed, type SpeedPlan } from './policy-speed';

const ONE_CALL: SpeedPlan = { decisions: { warmup: 0, repeats: 1, budgetMs: 0 }, gradSteps: { warmup: 0, repeats: 1, budgetMs: 0 } };

beforeAll(async () => {
  await useNodeBackend('cpu');
});

async function measured(overrides: string[]) {
  const config = tinyConfig(overrides);
  const shapes = envShapes(config);
  const policy = new FlowPolicy(policyOptionsFromConfig(config, shapes.obsFrameSize, shapes.actionDim), 1);
  try {
    const before = tf.memory().numTensors;
    const speed = await measurePolicySpeed(policy, config, ONE_CALL);
    return { speed, leaked: tf.memory().numTensors - before };
  } finally {
    policy.dispose();
  }
}

describe('measurePolicySpeed', () => {
  it('times a decision and a PPO gradient step of an MLP policy and leaves no tensor behind', async () => {
    const { speed, leaked } = await measured(['noise.method=sde', 'noise.logprob_type=token']);
    expect(speed.decisionSeconds).toBeGreaterThan(0);
    expect(speed.gradStepSeconds).toBeGreaterThan(0);
    expect(Number.isFinite(speed.decisionSeconds + speed.gradStepSeconds)).toBe(true);
    expect(leaked).toBe(0);
  });

  it('leaves the gradient step untimed once the decisions alone outlast the bound', async () => {
    const config = tinyConfig();
    const shapes = envShapes(config);
    const policy = new FlowPolicy(policyOptionsFromConfig(config, shapes.obsFrameSize, shapes.actionDim), 1);
    try {
      const speed = await measurePolicySpeed(policy, config, ONE_CALL, 1e-9);
      expect(speed.partial).toBe(true);
      expect(speed.gradStepSeconds).toBe(0);
      expect(speed.decisionSeconds).toBeGreaterThan(0);
    } finally {
      policy.dispose();
    }
  });

  it('times a point-cloud DiT-X policy with its frozen encoder, as its rollout stores features', async () => {
    const { speed, leaked } = await measured([
      'env.obs_type=pointcloud', 'env.num_points=16', 'policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=1', 'policy.ditx_heads=2',
      'noise.method=noise',
    ]);
    expect(speed.decisionSeconds).toBeGreaterThan(0);
    expect(speed.gradStepSeconds).toBeGreaterThan(0);
    expect(leaked).toBe(0);
  });
});
