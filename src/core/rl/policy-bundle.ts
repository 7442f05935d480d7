import * as tf from '@tensorflow/tfjs';
import { sampleActions, type SampleResult } from '../flow/sampler';
import type { SamplerOptions } from '../flow/sampling-options';
import type { PolicyBundle } from '../policy/policy-bundle';
import { obsFrameSize } from '../policy/options';
import type { Rng } from '../random';

/** Normalizes every frame of stacked raw observations [B, nObs·obsDim]. */
export function normalizeStacked(bundle: PolicyBundle, stacked: Float32Array): Float32Array {
  return bundle.obsNormalizer.normalize(stacked);
}

/** Samples chains for normalized stacked observations [B, nObs·obsDim]. */
export async function sampleForObs(bundle: PolicyBundle, normalizedObs: Float32Array, options: SamplerOptions, rng: Rng): Promise<SampleResult> {
  const { policy } = bundle;
  const obsSize = policy.options.nObsSteps * obsFrameSize(policy.options);
  const state = tf.tensor2d(normalizedObs, [normalizedObs.length / obsSize, obsSize]);
  try {
    return await sampleActions(policy, { state }, options, rng);
  } finally {
    state.dispose();
  }
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
