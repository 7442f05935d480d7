import * as tf from '@tensorflow/tfjs';
import { ConfigError } from '../errors';

/** Weights of the combined PPO objective. */
export interface PpoLossWeights {
  /** Weight of the critic loss. */
  valueCoef: number;
  /** Weight of the entropy bonus (subtracted, so higher entropy lowers the loss). */
  entropyCoef: number;
  /** Weight of the BC regularizer toward the reference policy (ppo.bc_coef); 0 when absent. */
  bcCoef?: number;
}

/**
 * total = policy + valueCoef·value − entropyCoef·entropy + bcCoef·bc (DESIGN.md §4, §12).
 * Any term may be omitted (for example the critic-only warm-up passes no policy). Returns a scalar.
 */
export function combinePpoLosses(terms: { policy?: tf.Scalar; value?: tf.Scalar; entropy?: tf.Scalar; bc?: tf.Scalar }, weights: PpoLossWeights): tf.Scalar {
  const fields = { valueCoef: 'ppo.value_coef', entropyCoef: 'ppo.entropy_coef', bcCoef: 'ppo.bc_coef' } as const;
  for (const [key, field] of Object.entries(fields) as [keyof PpoLossWeights, string][]) {
    const weight = weights[key] ?? 0;
    if (!(weight >= 0 && Number.isFinite(weight))) {
      throw new ConfigError(field, `${field} must be a non-negative number, got ${weight}`);
    }
  }
  return tf.tidy(() => {
    let total: tf.Scalar = tf.scalar(0);
    if (terms.policy !== undefined) total = tf.add(total, terms.policy);
    if (terms.value !== undefined) total = tf.add(total, tf.mul(terms.value, weights.valueCoef));
    if (terms.entropy !== undefined) total = tf.sub(total, tf.mul(terms.entropy, weights.entropyCoef));
    if (terms.bc !== undefined) total = tf.add(total, tf.mul(terms.bc, weights.bcCoef ?? 0));
    return total;
  });
}
