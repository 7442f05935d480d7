import { describe, expect, it } from 'vitest';
import type { Demonstrations } from '../envs/expert-rollout';
import { MinMaxNormalizer } from '../policy/normalizer';
import { MIN_OBS_HALF_RANGE, buildBcDataset } from './bc-dataset';

/** Two episodes of a 1-D task: obs 0..2 and 10..11, actions equal to obs/10 - so normalization is easy to follow. */
function tinyDemos(): Demonstrations {
  return {
    task: 'reach', obsMode: 'state', obsDim: 1, actionDim: 1,
    obs: Float32Array.from([0, 1, 2, 10, 11]),
    actions: Float32Array.from([0, 0.1, 0.2, 1, 1.1]),
    rewards: new Float32Array(5),
    episodeStarts: Int32Array.from([0, 3, 5]),
    success: Uint8Array.from([1, 1]),
    seeds: Int32Array.from([0, 1]),
  };
}

describe('buildBcDataset', () => {
  it('stacks history with the first obs repeated and pads chunks with the last action', () => {
    const dataset = buildBcDataset(tinyDemos(), 2, 3);
    expect(dataset.size).toBe(5);
    // obs min 0, max 11 (wider than the ±0.05 floor): x → (x − 5.5)/5.5. Sample 0 history [obs0, obs0] = [-1, -1].
    const norm = (x: number) => (x - 5.5) / 5.5;
    expect(Array.from(dataset.obs.subarray(0, 2))).toEqual([norm(0), norm(0)].map((value) => expect.closeTo(value, 6)));
    // Sample 3 is the second episode's start: its history must not reach into episode one.
    expect(Array.from(dataset.obs.subarray(6, 8))).toEqual([norm(10), norm(10)].map((value) => expect.closeTo(value, 6)));
    // actions min 0, max 1.1: a → (a − 0.55)/0.55. Sample 1 chunk = actions 1, 2, then 2 repeated.
    const act = (a: number) => (a - 0.55) / 0.55;
    expect(Array.from(dataset.actions.subarray(3, 6))).toEqual([act(0.1), act(0.2), act(0.2)].map((value) => expect.closeTo(value, 5)));
  });

  it('widens an observation range narrower than the floor to ±MIN_OBS_HALF_RANGE', () => {
    const demos = tinyDemos();
    demos.obs = Float32Array.from([1, 1.01, 1.02, 1.0, 1.01]);
    // centre 1.01, half range 0.01 < 0.05, so stats become [0.96, 1.06]: 1.02 → (1.02 − 1.01)/0.05 = 0.2.
    const dataset = buildBcDataset(demos, 1, 1);
    expect(dataset.obsNormalizer.toJSON().min[0]).toBeCloseTo(1.01 - MIN_OBS_HALF_RANGE, 6);
    expect(dataset.obs[2]).toBeCloseTo(0.2, 4);
  });

  it('drops failed episodes unless asked and says so when nothing is left', () => {
    const demos = tinyDemos();
    demos.success = Uint8Array.from([0, 1]);
    expect(buildBcDataset(demos, 1, 1).size).toBe(2);
    expect(buildBcDataset(demos, 1, 1, { includeFailures: true }).size).toBe(5);
    demos.success = Uint8Array.from([0, 0]);
    expect(() => buildBcDataset(demos, 1, 1)).toThrow('the demonstrations hold no usable steps (no successful episodes)');
  });

  it('obsClip clamps the fitted observation normalizer and the samples it makes; given normalizers keep their own', () => {
    // obs min 0, max 11: x → (x − 5.5)/5.5 gives 0, 1, 2, 10, 11 → −1, −0.818, −0.636, 0.818, 1; clamped to ±0.5.
    const dataset = buildBcDataset(tinyDemos(), 1, 1, { obsClip: 0.5 });
    expect(dataset.obsNormalizer.clip).toBe(0.5);
    expect(Array.from(dataset.obs)).toEqual([-0.5, -0.5, -0.5, 0.5, 0.5]);
    expect(buildBcDataset(tinyDemos(), 1, 1, { obsClip: 0 }).obsNormalizer.clip).toBeUndefined();
    const obs = new MinMaxNormalizer({ min: [-10], max: [10] }, 'obs_normalizer');
    const action = new MinMaxNormalizer({ min: [0], max: [2] }, 'action_normalizer');
    expect(buildBcDataset(tinyDemos(), 1, 1, { obsClip: 0.5, normalizers: { obs, action } }).obsNormalizer).toBe(obs);
  });

  it('uses given normalizers instead of fitting new ones (stage 2 continues a trained policy)', () => {
    const obs = new MinMaxNormalizer({ min: [-10], max: [10] }, 'obs_normalizer');
    const action = new MinMaxNormalizer({ min: [0], max: [2] }, 'action_normalizer');
    const dataset = buildBcDataset(tinyDemos(), 1, 1, { normalizers: { obs, action } });
    expect(dataset.obsNormalizer).toBe(obs);
    expect(dataset.actionNormalizer).toBe(action);
    // obs 11 → 11/10 = 1.1 (outside [-1, 1]: the given range is kept, not widened); action 1.1 → (1.1 − 1)/1 = 0.1.
    expect(dataset.obs[4]).toBeCloseTo(1.1, 6);
    expect(dataset.actions[4]).toBeCloseTo(0.1, 6);
  });
});
