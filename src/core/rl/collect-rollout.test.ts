import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import type { RunConfig } from '../config';
import type { EpisodeRecord } from '../envs/task-env';
import type { VectorChunkResult } from '../envs/vector-env';
import { createRng } from '../random';
import type { BatchEnv } from '../envs/batch-env';
import { PhaseTimes } from './phase-times';
import { collectRollout, logProbUnits } from './collect-rollout';
import { ObsHistory } from './obs-history';
import { normalizeStacked, sampleForObs } from './policy-bundle';
import type { PolicyBundle } from '../policy/policy-bundle';
import { logProbSliceFromConfig, samplerOptionsAt } from './policy-setup';
import { freshBundle, stepObsEndingIn, tinyConfig } from './fixtures/test-support';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const OBS_DIM = 3;
const ACTION_DIM = 4;
const NONE = 0;
const TERM = 1;
const TRUNC = 2;
const BOTH = 3;

/**
 * A scripted batch of 2 envs. `ends[t][e]` says how decision t of env e ends; a done chunk
 * runs 1 env step, others all of theirs. Observations encode (call, env, slot) so every one
 * differs: obs after call c is 0.1·c + 0.01·e + 0.001·slot; final_obs adds 0.5.
 */
function scriptedEnv(ends: number[][]): BatchEnv & { actionsSeen: Float32Array[] } {
  const numEnvs = 2;
  let call = 0;
  let episodes: EpisodeRecord[] = [];
  const obsAt = (offset: number) => Float32Array.from({ length: numEnvs * OBS_DIM }, (_, index) => 0.1 * call + 0.01 * Math.floor(index / OBS_DIM) + 0.001 * (index % OBS_DIM) + offset);
  const env = {
    numEnvs,
    obsDim: OBS_DIM,
    actionDim: ACTION_DIM,
    actionsSeen: [] as Float32Array[],
    reset: async () => {
      call = 0;
      return obsAt(0);
    },
    stepChunk: async (actions: Float32Array, nSteps: number): Promise<VectorChunkResult> => {
      env.actionsSeen.push(actions.slice());
      const row = ends[call];
      call++;
      const terminated = Uint8Array.from(row, (end) => (end === TERM || end === BOTH ? 1 : 0));
      const truncated = Uint8Array.from(row, (end) => (end === TRUNC || end === BOTH ? 1 : 0));
      const steps = Int32Array.from(row, (end) => (end === NONE ? nSteps : 1));
      row.forEach((end, envIndex) => {
        if (end !== NONE) episodes.push({ envIndex, seed: 0, episodeReturn: call, length: call, success: end === TERM || end === BOTH, nq: 0, qpos: new Float32Array(0), mocapPos: [] } as EpisodeRecord);
      });
      const reward = Float32Array.from({ length: numEnvs }, (_, envIndex) => call + 0.25 * envIndex);
      const finalObs = obsAt(0.5);
      // Success ends an episode by termination, as in the tasks.
      return { obs: obsAt(0), finalObs, reward, terminated, truncated, success: terminated.slice(), steps, stepObs: stepObsEndingIn(finalObs, steps, nSteps) };
    },
    drainEpisodes: async () => {
      const out = episodes;
      episodes = [];
      return out;
    },
    metrics: async () => ({ clippedActions: 0, unstableResets: 0, envSteps: 0 }),
    snapshot: async () => {
      throw new Error('a scripted env has no physics to snapshot');
    },
    restore: async () => undefined,
    dispose: async () => undefined,
  };
  return env;
}

async function collect(config: RunConfig, bundle: PolicyBundle, env: BatchEnv) {
  const history = new ObsHistory(env.numEnvs, env.obsDim, config.policy.n_obs_steps);
  history.reset(await env.reset([0, 1]));
  const sampler = samplerOptionsAt(config, 0, 'train');
  const slice = logProbSliceFromConfig(config, env.actionDim);
  const result = await collectRollout(bundle, env, { history }, config, sampler, slice, createRng(9), new PhaseTimes(() => 0));
  return { ...result, history, sampler, slice };
}

/** V of raw stacked observations [2, nObs·obsDim] under the bundle (value_on obs ignores the chain). */
async function valuesOf(bundle: PolicyBundle, config: RunConfig, stacked: Float32Array): Promise<Float32Array> {
  const sample = await sampleForObs(bundle, normalizeStacked(bundle, stacked), samplerOptionsAt(config, 0, 'eval'), createRng(1));
  return sample.values;
}

// The scripted env's observations are per decision (its obs and finalObs differ even without a done),
// so these layout tests run with decision spacing; history-spacing.test.ts checks step spacing on real envs.
describe('collectRollout', () => {
  it('records rewards, τ, ends, V(final_obs) on truncation and the bootstrap value; auto-reset keeps every entry', async () => {
    const config = tinyConfig(['num_envs=2', 'ppo.minibatch_size=2', 'env.steps_per_iteration=3', 'policy.n_obs_steps=1', 'policy.history_spacing=decision']);
    const bundle = freshBundle(config, OBS_DIM, ACTION_DIM);
    try {
      const env = scriptedEnv([[NONE, TRUNC], [BOTH, NONE], [NONE, TERM]]);
      const { buffer, stats } = await collect(config, bundle, env);
      expect([...buffer.mask]).toEqual([1, 1, 1, 1, 1, 1]);
      expect([...buffer.rewards]).toEqual([1, 1.25, 2, 2.25, 3, 3.25]);
      // A done chunk ran 1 step, the others n_action_steps = 2.
      expect([...buffer.chunkSteps]).toEqual([2, 1, 1, 2, 2, 1]);
      expect(stats.envSteps).toBe(9);
      // Termination wins over a simultaneous truncation (no bootstrap).
      expect([...buffer.terminated]).toEqual([0, 0, 1, 0, 0, 1]);
      expect([...buffer.truncated]).toEqual([0, 1, 0, 0, 0, 0]);
      // Successes are recorded per decision, for GRPO's filter.
      expect([...buffer.success]).toEqual([0, 0, 1, 0, 0, 1]);
      // Entry (0, 1) was truncated: V of the observation before the reset, 0.1·1 + 0.01 + 0.5 + 0.001·slot.
      const finalObs = Float32Array.from({ length: 6 }, (_, index) => 0.1 + 0.01 * Math.floor(index / 3) + 0.001 * (index % 3) + 0.5);
      expect(buffer.finalValues[1]).toBeCloseTo((await valuesOf(bundle, config, finalObs))[1], 5);
      expect([buffer.finalValues[0], buffer.finalValues[2], buffer.finalValues[5]]).toEqual([0, 0, 0]);
      // Bootstrap: V of the observation after the third call.
      const lastObs = Float32Array.from({ length: 6 }, (_, index) => 0.3 + 0.01 * Math.floor(index / 3) + 0.001 * (index % 3));
      const expectedBootstrap = await valuesOf(bundle, config, lastObs);
      expect(buffer.bootstrapValues[0]).toBeCloseTo(expectedBootstrap[0], 5);
      expect(buffer.bootstrapValues[1]).toBeCloseTo(expectedBootstrap[1], 5);
      // Stored observation of decision 1 is the normalized obs after call 1 (n_obs_steps = 1).
      const obsAfterFirst = Float32Array.from({ length: 6 }, (_, index) => 0.1 + 0.01 * Math.floor(index / 3) + 0.001 * (index % 3));
      const stored = buffer.obs.subarray(2 * OBS_DIM, 4 * OBS_DIM);
      normalizeStacked(bundle, obsAfterFirst).forEach((value, index) => expect(stored[index]).toBeCloseTo(value, 6));
      expect(stats.episodes.length).toBe(3);
      expect(stats.meanNoiseStd).toBeGreaterThan(0);
      // Env actions are the first n_action_steps of each chunk: [2 envs × 2 steps × 4 dims].
      expect(env.actionsSeen.every((actions) => actions.length === 16)).toBe(true);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('without auto-reset masks every decision after an env is done, and does not count its steps', async () => {
    const config = tinyConfig(['num_envs=2', 'ppo.minibatch_size=2', 'env.steps_per_iteration=3', 'env.auto_reset=false']);
    const bundle = freshBundle(config, OBS_DIM, ACTION_DIM);
    try {
      const { buffer, stats } = await collect(config, bundle, scriptedEnv([[NONE, TERM], [TRUNC, NONE], [NONE, NONE]]));
      // Env 1 is done after decision 0, env 0 after decision 1.
      expect([...buffer.mask]).toEqual([1, 1, 1, 0, 0, 0]);
      // Valid steps: env 0 ran 2 + 1, env 1 ran 1.
      expect(stats.envSteps).toBe(4);
    } finally {
      bundle.policy.dispose();
    }
  });

  it('starts a done env over from its reset observation in the history', async () => {
    const config = tinyConfig(['num_envs=2', 'ppo.minibatch_size=2', 'env.steps_per_iteration=2', 'policy.n_obs_steps=2', 'policy.history_spacing=decision']);
    const bundle = freshBundle(config, OBS_DIM, ACTION_DIM);
    try {
      const { buffer } = await collect(config, bundle, scriptedEnv([[NONE, TRUNC], [NONE, NONE]]));
      const stackedSize = 2 * OBS_DIM;
      // Decision 1: env 0 stacks [obs after reset, obs after call 1]; env 1 restarted: [obs after call 1] twice.
      const frame = (callIndex: number, envIndex: number) => Array.from({ length: OBS_DIM }, (_, slot) => 0.1 * callIndex + 0.01 * envIndex + 0.001 * slot);
      const expectedRaw = Float32Array.from([...frame(0, 0), ...frame(1, 0), ...frame(1, 1), ...frame(1, 1)]);
      const expected = normalizeStacked(bundle, expectedRaw);
      const stored = buffer.obs.subarray(2 * stackedSize, 4 * stackedSize);
      expected.forEach((value, index) => expect(stored[index]).toBeCloseTo(value, 6));
    } finally {
      bundle.policy.dispose();
    }
  });

  it('stores one log-prob unit per reduced element and leaks no tensors', async () => {
    for (const [type, units] of [['token', 8], ['action', 2], ['chunk', 1], ['mean', 1]] as const) {
      const config = tinyConfig(['num_envs=2', 'ppo.minibatch_size=2', `noise.logprob_type=${type}`]);
      expect(logProbUnits(logProbSliceFromConfig(config, ACTION_DIM))).toBe(units);
      const bundle = freshBundle(config, OBS_DIM, ACTION_DIM);
      try {
        await collect(config, bundle, scriptedEnv([[NONE, NONE], [NONE, NONE]]));
        const tensors = tf.memory().numTensors;
        const { buffer } = await collect(config, bundle, scriptedEnv([[NONE, NONE], [NONE, NONE]]));
        expect(tf.memory().numTensors).toBe(tensors);
        expect(buffer.oldLogProbs.length).toBe(2 * 2 * units);
        // Hybrid sde: one stochastic step per chain, so every log-prob is a finite non-zero density.
        expect([...buffer.oldLogProbs].every((value) => Number.isFinite(value) && value !== 0)).toBe(true);
        expect([...buffer.denoiseInds].reduce((sum, flag) => sum + flag, 0)).toBe(4);
      } finally {
        bundle.policy.dispose();
      }
    }
  });
});
