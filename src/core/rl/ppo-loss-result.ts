import type * as tf from '@tensorflow/tfjs';

/**
 * What every loss returns (DESIGN.md §9): a differentiable scalar and named
 * scalar metrics, keyed by their MetricKey names. The caller owns all of
 * them; inside tf.variableGrads keep the metrics with tf.keep.
 */
export interface LossResult<MetricName extends string> {
  loss: tf.Scalar;
  metrics: Record<MetricName, tf.Scalar>;
}

/** Reads scalar metrics with `await data()` (never dataSync, DESIGN.md §7) and disposes them; absent optional metrics stay absent. */
export async function readMetrics<Metrics extends Partial<Record<string, tf.Scalar>>>(metrics: Metrics): Promise<{ [Name in keyof Metrics]: number }> {
  const names = Object.keys(metrics) as (keyof Metrics & string)[];
  try {
    const values = await Promise.all(names.map((name) => (metrics[name] as tf.Scalar).data()));
    const out = {} as { [Name in keyof Metrics]: number };
    names.forEach((name, position) => (out[name] = values[position][0]));
    return out;
  } finally {
    for (const name of names) (metrics[name] as tf.Scalar).dispose();
  }
}
