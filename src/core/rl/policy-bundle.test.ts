import { describe, expect, it } from 'vitest';
import type { SampleResult } from '../flow/sampler';
import { MinMaxNormalizer } from '../policy/normalizer';
import type { FlowPolicy } from '../policy/flow-policy';
import { executedActions, normalizeStacked } from './policy-bundle';
import type { PolicyBundle } from '../policy/policy-bundle';

/** Obs feature 0 in [0, 4], feature 1 in [-1, 1]; action dim 0 in [-2, 2], dim 1 in [0, 1]. */
const bundle: PolicyBundle = {
  policy: undefined as unknown as FlowPolicy,
  obsNormalizer: new MinMaxNormalizer({ min: [0, -1], max: [4, 1] }),
  actionNormalizer: new MinMaxNormalizer({ min: [-2, 0], max: [2, 1] }),
};

describe('policy bundle helpers', () => {
  it('normalizeStacked normalizes every frame of a stacked history with the per-frame stats', () => {
    // 2 envs × 2 frames × 2 features: feature 0 maps x → (x − 2)/2, feature 1 stays.
    const stacked = Float32Array.from([0, 0.5, 4, -1, 2, 1, 3, 0]);
    expect([...normalizeStacked(bundle, stacked)]).toEqual([-1, 0.5, 1, -1, 0, 1, 0.5, 0]);
  });

  it('executedActions keeps the first n_action_steps of each chunk and maps them to env units', () => {
    // B = 2, H = 3, A = 2; chunk b step h = [0.1·(b·3 + h), −1 + h/2].
    const actions = new Float32Array(12);
    for (let envIndex = 0; envIndex < 2; envIndex++) {
      for (let step = 0; step < 3; step++) actions.set([0.1 * (envIndex * 3 + step), -1 + step / 2], (envIndex * 3 + step) * 2);
    }
    const sample = { batch: 2, horizon: 3, actionDim: 2, actions } as SampleResult;
    // Unnormalize: dim 0 y → 2y, dim 1 y → (y + 1)/2. Env 0 steps 0, 1 and env 1 steps 0, 1 (flat 3, 4).
    const expected = [0, 0, 0.2, 0.25, 0.6, 0, 0.8, 0.25];
    const out = executedActions(bundle, sample, 2);
    expect(out.length).toBe(8);
    expected.forEach((value, index) => expect(out[index]).toBeCloseTo(value, 6));
  });
});
