import * as tf from '@tensorflow/tfjs';
import { standardizeLastAxis } from './adaln';
import type { ParamLookup } from './layers';

/** torch.nn.GroupNorm's default ε. */
export const GROUP_NORM_EPSILON = 1e-5;
const standardize = standardizeLastAxis(GROUP_NORM_EPSILON);

/**
 * GroupNorm (torch.nn.GroupNorm(G, C)) over x [B, L, C]: the C channels split into G groups of C/G consecutive
 * channels; each sample's group is standardized over its L·C/G values (biased variance, ε = 1e-5), then scaled by
 * `${prefix}.gamma` [C] and shifted by `${prefix}.beta` [C]. `groups` divides C.
 */
export function groupNorm(param: ParamLookup, prefix: string, x: tf.Tensor3D, groups: number): tf.Tensor3D {
  const [batch, length, channels] = x.shape;
  const perGroup = channels / groups;
  // [B, L, G, C/G] → [B, G, L, C/G] → [B, G, L·C/G]: each group's values contiguous on the last axis.
  const grouped = tf.reshape(tf.transpose(tf.reshape(x, [batch, length, groups, perGroup]), [0, 2, 1, 3]), [batch, groups, length * perGroup]);
  const normalized = tf.transpose(tf.reshape(standardize(grouped), [batch, groups, length, perGroup]), [0, 2, 1, 3]);
  return tf.add(tf.mul(tf.reshape(normalized, [batch, length, channels]), param(`${prefix}.gamma`)), param(`${prefix}.beta`)) as tf.Tensor3D;
}
