import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { createRng } from '../random';
import { freshBundle, openChunkEnv, tinyConfig } from '../rl/fixtures/test-support';
import { collectOfflineRollouts } from './offline-rollouts';

let mj: Mujoco;

beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = (await loadMujocoNode()) as unknown as Mujoco;
});

describe('collectOfflineRollouts', () => {
  it('keeps every decision of each env\'s first episode, laid out like BC samples, with its return-to-go', async () => {
    // γ = 1, so an episode's first return-to-go is its whole undiscounted return.
    const config = tinyConfig(['advantages.gamma=1']);
    const env = new InThreadBatchEnv(mj, { task: 'reach', numEnvs: 3, recordEpisodes: false, maxEpisodeSteps: 9 });
    const bundle = freshBundle(config, env.obsDim, env.actionDim, 2);
    try {
      const rollouts = await collectOfflineRollouts(bundle, env, config, [7, 8, 9], createRng(1));
      const { horizon, actionDim, nObsSteps } = bundle.policy.options;
      const nActionSteps = config.policy.n_action_steps;
      expect(rollouts.episodes.map((episode) => episode.seed)).toEqual([7, 8, 9]);
      // Each episode of L steps took ceil(L / n_action_steps) decisions (an untrained policy runs to the 9-step limit: 5).
      const decisions = rollouts.episodes.map((episode) => Math.ceil(episode.length / nActionSteps));
      expect(Array.from(rollouts.episodeStarts)).toEqual([0, decisions[0], decisions[0] + decisions[1], decisions[0] + decisions[1] + decisions[2]]);
      expect(rollouts.size).toBe(decisions.reduce((sum, count) => sum + count, 0));
      expect(rollouts.obs.length).toBe(rollouts.size * nObsSteps * env.obsDim);
      expect(rollouts.actions.length).toBe(rollouts.size * horizon * actionDim);
      rollouts.episodes.forEach((episode, envIndex) => {
        const first = rollouts.episodeStarts[envIndex];
        expect(rollouts.returns[first]).toBeCloseTo(episode.episodeReturn, 4);
        // The first decision sees the reset observation repeated over the history.
        const stack = rollouts.obs.subarray(first * nObsSteps * env.obsDim, (first + 1) * nObsSteps * env.obsDim);
        expect(Array.from(stack.subarray(env.obsDim))).toEqual(Array.from(stack.subarray(0, env.obsDim)));
      });
      // Stochastic chunks: two rollouts from different sampler streams differ.
      const again = await collectOfflineRollouts(bundle, env, config, [7, 8, 9], createRng(2));
      expect(Array.from(again.actions.subarray(0, 8))).not.toEqual(Array.from(rollouts.actions.subarray(0, 8)));
    } finally {
      await env.dispose();
      bundle.policy.dispose();
    }
  });

  it('needs one env per seed', async () => {
    const config = tinyConfig();
    const env = openChunkEnv(mj, config, 2);
    const bundle = freshBundle(config, env.obsDim, env.actionDim, 2);
    try {
      await expect(collectOfflineRollouts(bundle, env, config, [1], createRng(1))).rejects.toThrow('stage-2 rollouts need one env per seed: 1 seeds for 2 envs');
    } finally {
      await env.dispose();
      bundle.policy.dispose();
    }
  });
});
