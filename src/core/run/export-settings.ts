import type { FlowtuneMetadata } from '../checkpoint/metadata';
import type { JsonObject } from '../checkpoint/checkpoint-types';
import type { RunConfig } from '../config';

/**
 * The checkpoint's metadata with the sampler settings of `config` in force (K, executed steps, the denoised clamp),
 * so an export writes the graph for the K asked for (`npm run export -- policy.denoise_steps=K`) and says so.
 */
export function metadataWithSampler(metadata: FlowtuneMetadata, config: RunConfig): FlowtuneMetadata {
  const stored = (metadata.config ?? {}) as { policy?: JsonObject };
  return {
    ...metadata,
    architecture: { ...metadata.architecture, denoise_steps: config.policy.denoise_steps, n_action_steps: config.policy.n_action_steps },
    config: { ...stored, policy: { ...(stored.policy ?? {}), denoised_clamp: config.policy.denoised_clamp } },
  };
}
