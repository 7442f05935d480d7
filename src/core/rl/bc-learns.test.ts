import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { collectExpertDemos } from '../envs/expert-rollout';
import type { Mujoco } from '../envs/mujoco-types';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import { buildBcDataset } from './bc-dataset';
import { evaluatePolicy } from './evaluate';
import { policyOptionsFromConfig } from './policy-setup';
import { pretrainPolicy } from './pretrain';
import { openChunkEnv, tinyConfig } from './fixtures/test-support';

let mj: Mujoco;

beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = (await loadMujocoNode()) as unknown as Mujoco;
});

describe('flow-matching BC on reach', () => {
  it('beats the same policy before training on 16 held-out episodes', async () => {
    const config = tinyConfig(['policy.hidden=64,64', 'policy.encoder_hidden=64', 'policy.horizon=8', 'policy.n_action_steps=4', 'policy.denoise_steps=4']);
    const demos = collectExpertDemos(mj, { task: 'reach', episodes: 40, seed: 0, noise: 0.1 });
    const dataset = buildBcDataset(demos, config.policy.n_obs_steps, config.policy.horizon);
    const policy = new FlowPolicy(policyOptionsFromConfig(config, demos.obsDim, demos.actionDim), 2);
    const bundle = { policy, obsNormalizer: dataset.obsNormalizer, actionNormalizer: dataset.actionNormalizer };
    const env = openChunkEnv(mj, config, 16);
    const seeds = Array.from({ length: 16 }, (_, episodeIndex) => 500_000 + episodeIndex);
    try {
      const untrained = await evaluatePolicy(bundle, env, config, seeds, createRng(9));
      await pretrainPolicy(policy, dataset, { steps: 400, batchSize: 128, learningRate: 2e-3, emaDecay: 0.95, shortcutFraction: 0.25, seed: 4 });
      const trained = await evaluatePolicy(bundle, env, config, seeds, createRng(9));
      // The expert reaches every goal; the untrained policy reaches none (measured 0/16, return −36.3).
      // After 400 BC steps it must reach at least a fifth of the held-out goals (measured 5/16) and
      // get much closer on average (measured return −18.2).
      expect(trained.successRate).toBeGreaterThanOrEqual(0.2);
      expect(trained.meanReturn).toBeGreaterThan(untrained.meanReturn + 10);
      expect(trained.successRate).toBeGreaterThan(untrained.successRate!);
      expect(trained.meanReturn).toBeGreaterThan(untrained.meanReturn);
    } finally {
      await env.dispose();
      policy.dispose();
    }
  });
});
