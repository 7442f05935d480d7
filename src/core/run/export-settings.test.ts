import { describe, expect, it } from 'vitest';
import type { FlowtuneMetadata } from '../checkpoint/metadata';
import { applyOverrides, defaultConfig } from '../config';
import { metadataWithSampler } from './export-settings';

/** Just the fields metadataWithSampler reads and writes. */
const metadata = (obs: Record<string, unknown>) => ({
  architecture: { denoise_steps: 4, n_action_steps: 4 },
  config: { policy: { denoised_clamp: 0, ddim_steps: 0 } },
  normalizer: { obs, action: { min: [-1], max: [1] } },
}) as unknown as FlowtuneMetadata;

describe('metadataWithSampler', () => {
  it('writes the observation clamp in force into the obs stats (none at 0) and the stored config', () => {
    const ranges = { min: [0, 1], max: [2, 3] };
    const clipped = metadataWithSampler(metadata(ranges), applyOverrides(defaultConfig(), ['policy.obs_clip=5', 'policy.denoise_steps=8']));
    expect(clipped.normalizer.obs).toEqual({ ...ranges, clip: 5 });
    expect(clipped.architecture.denoise_steps).toBe(8);
    expect((clipped.config as { policy: Record<string, unknown> }).policy.obs_clip).toBe(5);
    const removed = metadataWithSampler(metadata({ ...ranges, clip: 5 }), applyOverrides(defaultConfig(), ['policy.obs_clip=0']));
    expect(removed.normalizer.obs).toEqual(ranges);
  });

  it("leaves a Gaussian policy's obs stats alone: their clip is its running normalization's (ppo.norm_clip)", () => {
    const stats = { mean: [0], var: [1], count: 3, clip: 10, enabled: true };
    const gaussian = metadataWithSampler(metadata(stats), applyOverrides(defaultConfig(), ['policy.kind=gaussian', 'policy.horizon=1', 'policy.n_action_steps=1', 'policy.n_obs_steps=1']));
    expect(gaussian.normalizer.obs).toEqual(stats);
  });
});
