import type { LogProbSlice } from '../flow/logprob-reduce';
import { sampleActions, type SampleResult } from '../flow/sampler';
import type { SamplerOptions } from '../flow/sampling-options';
import { policyValues } from '../flow/value-pass';
import type { Rng } from '../random';
import type { PolicyBundle } from '../policy/policy-bundle';
import { withPolicyObs } from './policy-input';

/**
 * One rollout decision: chains for normalized stacked observations [B, nObs·obsDim] (and an image
 * policy's images [B × imageBytes]) with the log-prob sliced and reduced on the device, so `logProbs`
 * is already the PPO old log-prob ([B, Ta, Ae] token, [B, Ta] action, [B] chunk) and is downloaded once.
 */
export async function sampleDecision(bundle: PolicyBundle, normalizedObs: Float32Array, options: SamplerOptions, slice: LogProbSlice, rng: Rng, images?: Uint8Array): Promise<SampleResult> {
  return withPolicyObs(bundle.policy.options, normalizedObs, images, (obs) => sampleActions(bundle.policy, obs, options, rng, slice));
}

/**
 * `sampleDecision` for a frozen encoder (`policy.freeze_encoder`): the observation is encoded once,
 * the chains are sampled from those features (the same values as encoding inside), and the
 * features [B, F] come back to be stored in place of the observation.
 */
export async function sampleDecisionFromFeatures(
  bundle: PolicyBundle,
  normalizedObs: Float32Array,
  options: SamplerOptions,
  slice: LogProbSlice,
  rng: Rng,
  images?: Uint8Array,
): Promise<{ sample: SampleResult; features: Float32Array }> {
  return withPolicyObs(bundle.policy.options, normalizedObs, images, async (obs) => {
    const features = bundle.policy.encode(obs);
    try {
      const sample = await sampleActions(bundle.policy, { features }, options, rng, slice);
      return { sample, features: (await features.data()) as Float32Array };
    } finally {
      features.dispose();
    }
  });
}

/**
 * V [B] of normalized stacked observations [B, nObs·obsDim] for bootstraps, without sampling
 * actions: equal to `sampleForObs(bundle, obs, { ...options, method: 'ode', mode: 'eval' }, rng).values`.
 * Only `options.steps` and `options.denoisedClamp` matter (value_on expert runs the K-step ODE chain; obs draws no noise).
 */
export async function valuesForObs(bundle: PolicyBundle, normalizedObs: Float32Array, options: Pick<SamplerOptions, 'steps' | 'denoisedClamp'>, rng: Rng, images?: Uint8Array): Promise<Float32Array> {
  return withPolicyObs(bundle.policy.options, normalizedObs, images, (obs) => policyValues(bundle.policy, obs, options.steps, rng, options.denoisedClamp));
}
