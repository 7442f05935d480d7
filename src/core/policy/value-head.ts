import * as tf from '@tensorflow/tfjs';
import { dense, mlpLayers, type ParamLookup } from './layers';
import type { FlowPolicyOptions } from './options';
import { stopGradient } from './stop-gradient';

/**
 * Value head (DESIGN.md §3): MLP → scalar. input [B, D] is the obs features (`value_on: obs`)
 * or the velocity hidden features averaged over denoising steps (`value_on: expert`). → [B]
 * With `detachCriticInput` no gradient flows back into the input.
 */
export function valueHead(param: ParamLookup, options: FlowPolicyOptions, input: tf.Tensor2D): tf.Tensor1D {
  return tf.tidy(() => {
    const source = options.detachCriticInput ? stopGradient(input) : input;
    const h = mlpLayers(param, 'value', source, options.valueHidden.length);
    return tf.reshape(dense(param, 'value.output', h), [-1]) as tf.Tensor1D;
  });
}
