import type { FlowtuneMetadata } from '../checkpoint/metadata';
import type { JsonObject } from '../checkpoint/checkpoint-types';
import type { RunConfig } from '../config';

/**
 * The checkpoint's metadata with the sampler settings of `config` in force (K, executed steps, the denoised clamp, a
 * diffusion policy's DDIM steps, the observation clamp), so an export writes the graph asked for (`npm run export -- policy.denoise_steps=K`,
 * `policy.ddim_steps=S`) and says so.
 */
export function metadataWithSampler(metadata: FlowtuneMetadata, config: RunConfig): FlowtuneMetadata {
  const stored = (metadata.config ?? {}) as { policy?: JsonObject };
  return {
    ...metadata,
    architecture: { ...metadata.architecture, denoise_steps: config.policy.denoise_steps, n_action_steps: config.policy.n_action_steps },
    config: { ...stored, policy: { ...(stored.policy ?? {}), denoised_clamp: config.policy.denoised_clamp, ddim_steps: config.policy.ddim_steps, obs_clip: config.policy.obs_clip } },
    // A Gaussian policy's obs stats hold its own running-normalization clip (ppo.norm_clip), which this is not.
    ...(config.policy.kind === 'gaussian' ? {} : { normalizer: { ...metadata.normalizer, obs: obsWithClip(metadata.normalizer.obs, config.policy.obs_clip) } }),
  };
}

/** The stored obs normalizer stats with the clamp in force (none at 0). */
function obsWithClip(obs: unknown, clip: number): JsonObject {
  const { clip: _stored, ...ranges } = (obs ?? {}) as JsonObject;
  return clip > 0 ? { ...ranges, clip } : ranges;
}
