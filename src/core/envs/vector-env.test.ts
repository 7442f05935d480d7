import { beforeAll, describe, expect, it } from 'vitest';
import type { Mujoco } from './mujoco-types';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { VectorEnv } from './vector-env';
import type { VectorEnvConfig } from './vector-env-config';
import { withVectorEnv } from './fixtures/with-vector-env';
import { createRng } from '../random';
import { ConfigError, EnvError, ShapeError } from '../errors';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

function withEnv<T>(config: VectorEnvConfig, body: (env: VectorEnv) => T): T {
  return withVectorEnv(mj, config, body);
}

/** Expert ee_delta_pos actions for every env of a state-obs batch. */
function expertActions(env: VectorEnv, experts: { act: (view: never, out: Float32Array) => void }[]): Float32Array {
  const actions = new Float32Array(env.numEnvs * 4);
  for (let envIndex = 0; envIndex < env.numEnvs; envIndex++) experts[envIndex].act(env.env(envIndex) as never, actions.subarray(envIndex * 4, envIndex * 4 + 4));
  return actions;
}

describe('VectorEnv', () => {
  it('env.max_episode_steps caps episodes below the task limit; 0 keeps the task limit', () => {
    withEnv({ task: 'lift', numEnvs: 2, maxEpisodeSteps: 5 }, (env) => {
      expect(env.config.maxEpisodeSteps).toBe(5);
      env.reset([1, 2]);
      const still = new Float32Array(8);
      for (let stepIndex = 0; stepIndex < 4; stepIndex++) expect([...env.step(still).truncated]).toEqual([0, 0]);
      // The 5th step reaches the cap: both envs truncate (they cannot succeed standing still) and record 5 steps.
      expect([...env.step(still).truncated]).toEqual([1, 1]);
      const episodes = env.drainEpisodes();
      expect(episodes.map((episode) => episode.length)).toEqual([5, 5]);
      expect(episodes[0].qpos.length).toBe(6 * episodes[0].nq);
    });
    withEnv({ task: 'lift', numEnvs: 1, maxEpisodeSteps: 0 }, (env) => expect(env.config.maxEpisodeSteps).toBe(100));
    expect(() => withEnv({ task: 'lift', numEnvs: 1, maxEpisodeSteps: -3 }, () => 0)).toThrow(/env\.max_episode_steps must be a positive integer or 0/);
  });

  it('same seeds and actions give the same trajectory; other seeds do not', () => {
    const run = (seeds: number[]) => withEnv({ task: 'pick-cube', numEnvs: 2 }, (env) => {
      const rng = createRng(9);
      const trace: number[] = [...env.reset(seeds)];
      for (let stepIndex = 0; stepIndex < 6; stepIndex++) {
        const actions = new Float32Array(8).map(() => rng.uniform() * 2 - 1);
        const result = env.step(actions);
        trace.push(...result.obs, ...result.reward);
      }
      return trace;
    });
    const first = run([3, 4]);
    expect(run([3, 4])).toEqual(first);
    expect(run([3, 5])).not.toEqual(first);
  });

  it('reports the observation spec and rejects bad config', () => {
    withEnv({ task: 'lift', numEnvs: 1 }, (env) => {
      const names = env.config.obsSpec.slices.map((slice) => slice.name);
      expect(names).toEqual(['joint_qpos', 'joint_qvel', 'gripper_qpos', 'tcp_pos', 'tcp_quat', 'cube_pos', 'cube_quat', 'tcp_to_cube']);
      expect(env.obsDim).toBe(7 + 7 + 2 + 3 + 4 + 3 + 4 + 3);
      const obs = env.reset([1]);
      const cube = env.config.obsSpec.slices.find((slice) => slice.name === 'cube_pos')!;
      expect(obs[cube.start + 2]).toBeCloseTo(0.02, 6);
    });
    expect(() => new VectorEnv(mj, { task: 'lift', numEnvs: 0 })).toThrow(ConfigError);
    expect(() => new VectorEnv(mj, { task: 'lift', numEnvs: 1, controlMode: 'osc' as never })).toThrow("env.control_mode 'osc' is not a control of task 'lift'; its controls: ee_delta_pos, joint_delta_pos");
  });

  it('auto-resets a terminated env and keeps the pre-reset observation in finalObs', () => {
    withEnv({ task: 'reach', numEnvs: 2 }, (env) => {
      env.reset([10, 11]);
      const experts = [0, 1].map(() => env.env(0).task.expert!.create(0, createRng(1)));
      let doneSeen = false;
      for (let stepIndex = 0; stepIndex < 50 && !doneSeen; stepIndex++) {
        const result = env.step(expertActions(env, experts));
        for (let envIndex = 0; envIndex < 2; envIndex++) {
          if (!result.terminated[envIndex]) continue;
          doneSeen = true;
          expect(result.truncated[envIndex]).toBe(0);
          expect(result.success[envIndex]).toBe(1);
          const dim = env.obsDim;
          const goalSlice = env.config.obsSpec.slices.find((slice) => slice.name === 'tcp_to_goal')!;
          const finalRow = result.finalObs.subarray(envIndex * dim, (envIndex + 1) * dim);
          const newRow = result.obs.subarray(envIndex * dim, (envIndex + 1) * dim);
          // The final observation has the TCP within 2.5 cm of its goal; the new episode starts elsewhere.
          const finalDistance = Math.hypot(...finalRow.subarray(goalSlice.start, goalSlice.start + 3));
          expect(finalDistance).toBeLessThan(0.025);
          expect([...newRow]).not.toEqual([...finalRow]);
          // The new episode restarts its step counter.
          expect(env.env(envIndex).steps).toBe(0);
          const [record] = env.drainEpisodes().filter((episode) => episode.envIndex === envIndex);
          expect(record.success).toBe(true);
          expect(record.qpos.length).toBe((record.length + 1) * record.nq);
          expect(record.seed).toBe(10 + envIndex);
        }
      }
      expect(doneSeen).toBe(true);
    });
  });

  it('truncates (not terminates) at max episode steps', () => {
    withEnv({ task: 'reach', numEnvs: 1, rewardMode: 'sparse' }, (env) => {
      env.reset([5]);
      const still = new Float32Array([0, 0, 0, 1]);
      for (let stepIndex = 0; stepIndex < 49; stepIndex++) {
        const result = env.step(still);
        expect(result.truncated[0] + result.terminated[0]).toBe(0);
        expect(result.reward[0]).toBe(0);
      }
      const last = env.step(still);
      expect(last.truncated[0]).toBe(1);
      expect(last.terminated[0]).toBe(0);
      const [record] = env.drainEpisodes();
      expect(record.length).toBe(50);
      expect(record.success).toBe(false);
    });
  });

  it('stepChunk returns R = Σ γ^j r_j and τ, stopping at the first done', () => {
    const gamma = 0.9;
    const nSteps = 4;
    const rng = createRng(2);
    const chunkActions = new Float32Array(2 * nSteps * 4).map(() => rng.uniform() * 2 - 1);
    // Reference: the same actions one step at a time in a second env.
    const perStep = withEnv({ task: 'lift', numEnvs: 2 }, (env) => {
      env.reset([20, 21]);
      const rewards: number[][] = [[], []];
      for (let stepIndex = 0; stepIndex < nSteps; stepIndex++) {
        const actions = new Float32Array(8);
        for (let envIndex = 0; envIndex < 2; envIndex++) actions.set(chunkActions.subarray((envIndex * nSteps + stepIndex) * 4, (envIndex * nSteps + stepIndex + 1) * 4), envIndex * 4);
        const result = env.step(actions);
        rewards[0].push(result.reward[0]);
        rewards[1].push(result.reward[1]);
      }
      return { rewards, obs: env.step(new Float32Array(8)).finalObs };
    });
    withEnv({ task: 'lift', numEnvs: 2 }, (env) => {
      env.reset([20, 21]);
      const chunk = env.stepChunk(chunkActions, nSteps, gamma);
      for (let envIndex = 0; envIndex < 2; envIndex++) {
        // R = r0 + 0.9 r1 + 0.81 r2 + 0.729 r3
        const expected = perStep.rewards[envIndex].reduce((sum, reward, j) => sum + gamma ** j * reward, 0);
        expect(chunk.reward[envIndex]).toBeCloseTo(expected, 5);
        expect(chunk.steps[envIndex]).toBe(nSteps);
      }
    });
    // A chunk longer than the remaining episode stops at the done.
    withEnv({ task: 'reach', numEnvs: 1, rewardMode: 'sparse' }, (env) => {
      env.reset([3]);
      const still = new Float32Array(48 * 4);
      env.stepChunk(still, 48, gamma);
      const chunk = env.stepChunk(new Float32Array(8 * 4), 8, gamma);
      expect(chunk.steps[0]).toBe(2);
      expect(chunk.truncated[0]).toBe(1);
      expect(chunk.reward[0]).toBe(0);
    });
  });

  it('rejects a NaN action naming the env, and counts clipped elements', () => {
    withEnv({ task: 'reach', numEnvs: 3 }, (env) => {
      env.reset([1, 2, 3]);
      const actions = new Float32Array(12);
      actions[2 * 4 + 1] = Number.NaN;
      expect(() => env.step(actions)).toThrow(EnvError);
      try {
        env.step(actions);
      } catch (error) {
        expect((error as EnvError).envIndex).toBe(2);
        expect((error as Error).message).toMatch(/env 2 .*dim 1.* NaN/);
      }
      actions[2 * 4 + 1] = Infinity;
      expect(() => env.step(actions)).toThrow(/env 2/);
      const wild = new Float32Array([2, -3, 0.5, 1, 0, 0, 0, 1.5, 0, 0, 0, 0]);
      env.step(wild);
      expect(env.metrics().clippedActions).toBe(3);
      expect(() => env.step(new Float32Array(5))).toThrow(ShapeError);
    });
  });

  it('truncates and resets an env whose physics goes unstable; the others go on', () => {
    withEnv({ task: 'lift', numEnvs: 2 }, (env) => {
      env.reset([1, 2]);
      env.step(new Float32Array(8));
      (env.env(1).data.qvel as Float64Array)[2] = Number.NaN;
      const result = env.step(new Float32Array(8));
      expect(result.truncated[1]).toBe(1);
      expect(result.truncated[0]).toBe(0);
      expect(env.metrics().unstableResets).toBe(1);
      expect(env.env(1).steps).toBe(0);
      expect(env.env(0).steps).toBe(2);
      for (const value of result.obs) expect(Number.isFinite(value)).toBe(true);
    });
  });

  it('joint_delta_pos moves the commanded joint', () => {
    withEnv({ task: 'reach', numEnvs: 1, controlMode: 'joint_delta_pos' }, (env) => {
      expect(env.config.actionDim).toBe(8);
      const obs = env.reset([4]);
      let last = obs;
      for (let stepIndex = 0; stepIndex < 5; stepIndex++) last = env.step(new Float32Array([1, 0, 0, 0, 0, 0, 0, 1])).obs;
      // Joint 1 target moves 0.1 rad per step; after 5 steps it has turned most of 0.5 rad.
      expect(last[0] - obs[0]).toBeGreaterThan(0.3);
      expect(Math.abs(last[3] - obs[3])).toBeLessThan(0.05);
    });
  });

  it('does not grow the wasm heap over many resets and steps', () => {
    withEnv({ task: 'pick-cube', numEnvs: 2 }, (env) => {
      const rng = createRng(1);
      const heapBytes = () => (env.env(0).data.qpos as Float64Array).buffer.byteLength;
      env.reset([1, 2]);
      for (let stepIndex = 0; stepIndex < 50; stepIndex++) env.step(new Float32Array(8).map(() => rng.uniform() * 2 - 1));
      const before = heapBytes();
      for (let round = 0; round < 20; round++) {
        env.reset([round, round + 100]);
        for (let stepIndex = 0; stepIndex < 40; stepIndex++) env.step(new Float32Array(8).map(() => rng.uniform() * 2 - 1));
        env.drainEpisodes();
      }
      expect(heapBytes()).toBe(before);
    });
  });
});
