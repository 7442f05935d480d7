/**
 * What the chain views condition a policy on (DESIGN.md §1 journey 4, §19): one decision's raw
 * stacked observation and, for an image policy, that decision's camera images, uploaded once as
 * `count` identical rows (the sampled chains) and once as a single row (the deterministic chain).
 */
import type * as tf from '@tensorflow/tfjs';
import type { PolicyObs } from '../policy/obs-encoder';
import type { FlowPolicyOptions } from '../policy/options';
import { policyObsTensors } from './policy-input';

/** One decision's input, as a rollout gave it to the policy. */
export interface DecisionInput {
  /** [nObs·frameSize] raw stacked observation in env units. */
  obs: Float32Array;
  /** [cameras × size × size × channels] uint8 camera images of the decision; only for an image policy. */
  images?: Uint8Array;
}

/** [rows × row.length]: `row` repeated `rows` times. */
export function tileRows<T extends Float32Array | Uint8Array>(row: T, rows: number): T {
  const out = new (row.constructor as { new (length: number): T })(rows * row.length);
  for (let index = 0; index < rows; index++) out.set(row, index * row.length);
  return out;
}

/**
 * Runs `call` on the decision uploaded as `count` rows and as one row (normalized observation,
 * images as they are), freeing both afterwards. A missing or mis-sized image is the policy input's
 * ShapeError, naming the bytes an image policy needs.
 */
export async function withChainObs<T>(
  options: FlowPolicyOptions,
  normalizedObs: Float32Array,
  images: Uint8Array | undefined,
  count: number,
  call: (tiled: PolicyObs, single: PolicyObs) => Promise<T>,
): Promise<T> {
  const uploaded: tf.Tensor[] = [];
  const upload = (obs: Float32Array, pixels: Uint8Array | undefined): PolicyObs => {
    const tensors = policyObsTensors(options, obs, pixels);
    uploaded.push(tensors.state!, ...(tensors.images ? [tensors.images] : []));
    return tensors;
  };
  try {
    const tiled = upload(tileRows(normalizedObs, count), images && tileRows(images, count));
    const single = upload(normalizedObs, images);
    return await call(tiled, single);
  } finally {
    for (const tensor of uploaded) tensor.dispose();
  }
}
