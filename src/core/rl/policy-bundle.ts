import { sampleActions, type SampleResult } from '../flow/sampler';
import type { SamplerOptions } from '../flow/sampling-options';
import type { PolicyBundle } from '../policy/policy-bundle';
import type { Rng } from '../random';
import { withPolicyObs } from './policy-input';

/** Normalizes every frame of stacked raw observations [B, nObs·obsDim]. */
export function normalizeStacked(bundle: PolicyBundle, stacked: Float32Array): Float32Array {
  return bundle.obsNormalizer.normalize(stacked);
}

/** Samples chains for normalized stacked observations [B, nObs·obsDim] (and an image policy's images [B × imageBytes]). */
export async function sampleForObs(bundle: PolicyBundle, normalizedObs: Float32Array, options: SamplerOptions, rng: Rng, images?: Uint8Array): Promise<SampleResult> {
  return withPolicyObs(bundle.policy.options, normalizedObs, images, (obs) => sampleActions(bundle.policy, obs, options, rng));
}

/**
 * The env actions of a chunk: the first `nActionSteps` of each normalized chunk [B, H, A],
 * back in env units → [B, nActionSteps, A].
 */
export function executedActions(bundle: PolicyBundle, sample: Pick<SampleResult, 'batch' | 'horizon' | 'actionDim' | 'actions'>, nActionSteps: number): Float32Array {
  const { batch, horizon, actionDim } = sample;
  const out = new Float32Array(batch * nActionSteps * actionDim);
  for (let envIndex = 0; envIndex < batch; envIndex++) {
    const from = envIndex * horizon * actionDim;
    out.set(sample.actions.subarray(from, from + nActionSteps * actionDim), envIndex * nActionSteps * actionDim);
  }
  return bundle.actionNormalizer.unnormalize(out);
}
