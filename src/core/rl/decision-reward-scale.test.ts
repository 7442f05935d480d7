import { describe, expect, it } from 'vitest';
import { applyOverrides, configFromJson, defaultConfig, rewardNormOn } from '../config';
import type { RunResumeState } from '../run/run-state';
import { DecisionRewardScale } from './decision-reward-scale';

/** A rollout of `numSteps` decisions × 2 envs with the given rewards and dones (row-major: step, then env). */
function rollout(rewards: number[], terminated: number[], truncated: number[]) {
  return {
    shape: { numSteps: rewards.length / 2, numEnvs: 2 } as never,
    rewards: Float32Array.from(rewards),
    terminated: Uint8Array.from(terminated),
    truncated: Uint8Array.from(truncated),
  };
}

describe('running reward scaling per decision (ppo.reward_norm)', () => {
  it('is on by default for the Gaussian and diffusion policies and off for flow policies; true and false override', () => {
    const base = defaultConfig();
    expect(rewardNormOn(base)).toBe(false);
    expect(rewardNormOn(applyOverrides(base, ['policy.kind=diffusion']))).toBe(true);
    expect(rewardNormOn(applyOverrides(base, ['policy.kind=gaussian']))).toBe(true);
    expect(rewardNormOn(applyOverrides(base, ['ppo.reward_norm=true']))).toBe(true);
    expect(rewardNormOn(applyOverrides(base, ['policy.kind=gaussian', 'ppo.reward_norm=false']))).toBe(false);
  });

  it('reads the boolean an earlier run folder stored as true or false', () => {
    expect(configFromJson({ ppo: { reward_norm: true } }).ppo.reward_norm).toBe('true');
    expect(configFromJson({ ppo: { reward_norm: false } }).ppo.reward_norm).toBe('false');
    expect(() => configFromJson({ ppo: { reward_norm: 'sometimes' } })).toThrow(/ppo.reward_norm must be one of auto, true, false/);
  });

  it('divides each decision reward by the running std of the discounted return, env by env, resetting G at a done', () => {
    const config = applyOverrides(defaultConfig(), ['ppo.reward_norm=true', 'num_envs=2', 'advantages.gamma=0.5', 'ppo.norm_clip=10']);
    const scale = new DecisionRewardScale(config);
    // Decision 0: r = (2, 4), G = (2, 4); env 1 terminates, so its G resets to 0 after.
    // Decision 1: r = (1, 3), G = (0.5·2 + 1, 0 + 3) = (2, 3).
    const buffer = rollout([2, 4, 1, 3], [0, 1, 0, 0], [0, 0, 0, 0]);
    scale.scaleRollout(buffer);
    // Float64 reference of the running variance: prior count 1e-4 (mean 0, variance 1), merged with each
    // decision's batch of G by the parallel rule: δ = m_b − m, n' = n + n_b, m' = m + δ·n_b/n',
    // v' = (v·n + v_b·n_b + δ²·n·n_b/n') / n'.
    let mean = 0;
    let variance = 1;
    let count = 1e-4;
    const merge = (batch: number[]) => {
      const batchMean = batch.reduce((a, b) => a + b, 0) / batch.length;
      const batchVariance = batch.reduce((a, b) => a + (b - batchMean) ** 2, 0) / batch.length;
      const delta = batchMean - mean;
      const total = count + batch.length;
      variance = (variance * count + batchVariance * batch.length + delta * delta * count * batch.length / total) / total;
      mean += delta * batch.length / total;
      count = total;
      return Math.sqrt(variance + 1e-8);
    };
    const firstStd = merge([2, 4]);
    const secondStd = merge([2, 3]);
    const expected = [2 / firstStd, 4 / firstStd, 1 / secondStd, 3 / secondStd];
    expected.forEach((value, index) => expect(buffer.rewards[index]).toBeCloseTo(value, 5));
  });

  it('clips the scaled rewards to ±ppo.norm_clip and leaves the rewards alone when off', () => {
    const clipped = new DecisionRewardScale(applyOverrides(defaultConfig(), ['ppo.reward_norm=true', 'num_envs=2', 'ppo.norm_clip=0.5']));
    const buffer = rollout([2, -4], [0, 0], [0, 0]);
    clipped.scaleRollout(buffer);
    expect(Array.from(buffer.rewards)).toEqual([0.5, -0.5]);
    const off = new DecisionRewardScale(applyOverrides(defaultConfig(), ['num_envs=2']));
    const raw = rollout([2, -4], [0, 0], [0, 0]);
    off.scaleRollout(raw);
    expect(Array.from(raw.rewards)).toEqual([2, -4]);
  });

  it('resumes exactly: a scaler restored from the resume state scales the next rollout as the original does', () => {
    const config = applyOverrides(defaultConfig(), ['ppo.reward_norm=true', 'num_envs=2']);
    const original = new DecisionRewardScale(config);
    original.scaleRollout(rollout([1, 2, 3, 4], [0, 0, 0, 1], [0, 0, 0, 0]));
    const state = {} as RunResumeState;
    original.write(state);
    const restored = new DecisionRewardScale(config);
    restored.read(state);
    const next = () => rollout([0.5, 5, 2, 1], [0, 0, 0, 0], [1, 0, 0, 0]);
    const a = next();
    const b = next();
    original.scaleRollout(a);
    restored.scaleRollout(b);
    expect(Array.from(b.rewards)).toEqual(Array.from(a.rewards));
  });
});
