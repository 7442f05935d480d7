import type { FlowtuneMetadata } from '../checkpoint/metadata';
import type { JsonObject } from '../checkpoint/checkpoint-types';
import type { RunConfig } from '../config';

/**
 * The checkpoint's metadata with the sampler settings of `config` in force (K, executed steps, the denoised clamp, a
 * diffusion policy's DDIM steps), so an export writes the graph asked for (`npm run export -- policy.denoise_steps=K`,
 * `policy.ddim_steps=S`) and says so.
 */
export function metadataWithSampler(metadata: FlowtuneMetadata, config: RunConfig): FlowtuneMetadata {
  const stored = (metadata.config ?? {}) as { policy?: JsonObject };
  return {
    ...metadata,
    architecture: { ...metadata.architecture, denoise_steps: config.policy.denoise_steps, n_action_steps: config.policy.n_action_steps },
    config: { ...stored, policy: { ...(stored.policy ?? {}), denoised_clamp: config.policy.denoised_clamp, ddim_steps: config.policy.ddim_steps } },
  };
}
