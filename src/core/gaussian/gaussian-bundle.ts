/** The Gaussian policy with the observation normalization it acts through (DESIGN.md §14 "Gaussian PPO"). */
import * as tf from '@tensorflow/tfjs';
import type { GaussianPolicy } from './gaussian-policy';
import type { ObservationScaler } from './observation-scaler';

export interface GaussianBundle {
  kind: 'gaussian';
  policy: GaussianPolicy;
  obsScaler: ObservationScaler;
}

/** Mean action [B, A], value [B] and the log std [A] for normalized observations [B, obsDim]. */
export async function gaussianForward(policy: GaussianPolicy, normalizedObs: Float32Array): Promise<{ mean: Float32Array; values: Float32Array; logStd: Float32Array }> {
  const rows = normalizedObs.length / policy.options.obsDim;
  const obs = tf.tensor2d(normalizedObs, [rows, policy.options.obsDim]);
  const [mean, values] = tf.tidy(() => [policy.mean(obs), policy.value(obs)]);
  try {
    return {
      mean: (await mean.data()) as Float32Array,
      values: (await values.data()) as Float32Array,
      logStd: (await policy.param('actor.log_std').data()) as Float32Array,
    };
  } finally {
    tf.dispose([obs, mean, values]);
  }
}

/** Values [B] of raw observations, normalized with the stats as they are. */
export async function gaussianValues(bundle: GaussianBundle, rawObs: Float32Array): Promise<Float32Array> {
  return (await gaussianForward(bundle.policy, bundle.obsScaler.normalize(rawObs))).values;
}
