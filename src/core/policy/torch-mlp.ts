import * as tf from '@tensorflow/tfjs';
import { dense, layerNorm, type ParamLookup } from './layers';

/** The activations ReinFlow's and DPPO's `model/common/mlp.py` offer by name. */
export type TorchActivation = 'ReLU' | 'ELU' | 'GELU' | 'Tanh' | 'Mish' | 'Identity' | 'Softplus' | 'SiLU';
export const TORCH_ACTIVATIONS: readonly TorchActivation[] = ['ReLU', 'ELU', 'GELU', 'Tanh', 'Mish', 'Identity', 'Softplus', 'SiLU'];

/** LayerNorm ε of the residual blocks (TwoLayerPreActivationResNetLinear uses 1e-6); the plain MLP's LayerNorm keeps torch's 1e-5. */
export const RESIDUAL_NORM_EPSILON = 1e-6;
export const PLAIN_NORM_EPSILON = 1e-5;

/**
 * One MLP of the peers' `model/common/mlp.py`, named our way. `dims` = [input, ...hidden, output].
 * - plain (`MLP`): `${prefix}.layers.i` (Linear, LayerNorm `${prefix}.norms.i` when `layerNorm`, activation) for the
 *   hidden layers, then `${prefix}.output` with no activation.
 * - residual (`ResidualMLP`): `${prefix}.input` (Linear, no activation), blocks `${prefix}.blocks.j` of
 *   x + l2(act(norm2(l1(act(norm1(x)))))) (pre-activation), then `${prefix}.output`. Hidden widths are all equal and
 *   their count is odd (1 + 2 per block).
 */
export interface TorchMlpLayout {
  dims: number[];
  activation: TorchActivation;
  residual: boolean;
  layerNorm: boolean;
}

/** GELU as torch computes it by default: 0.5·x·(1 + erf(x/√2)). */
function gelu(x: tf.Tensor): tf.Tensor {
  return tf.mul(tf.mul(x, 0.5), tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1));
}

/** softplus(x) = log(1 + eˣ) = max(x, 0) + log(1 + e^−|x|), stable and differentiable everywhere (torch returns x above 20, a 2e−9 difference). */
export function softplus(x: tf.Tensor): tf.Tensor {
  return tf.add(tf.relu(x), tf.log1p(tf.exp(tf.neg(tf.abs(x)))));
}

/** x → act(x) for one of the peers' activations. Mish is x·tanh(softplus(x)). */
export function torchActivation(activation: TorchActivation, x: tf.Tensor): tf.Tensor {
  switch (activation) {
    case 'ReLU': return tf.relu(x);
    case 'ELU': return tf.elu(x);
    case 'GELU': return gelu(x);
    case 'Tanh': return tf.tanh(x);
    case 'Mish': return tf.mul(x, tf.tanh(softplus(x)));
    case 'Softplus': return softplus(x);
    case 'SiLU': return tf.mul(x, tf.sigmoid(x));
    case 'Identity': return x;
  }
}

/** Number of residual blocks of a residual layout: (hidden count − 1)/2. */
export function residualBlockCount(layout: TorchMlpLayout): number {
  return (layout.dims.length - 3) / 2;
}

/** Every parameter name and shape of the layout, in our [in, out] kernel convention. */
export function torchMlpShapes(prefix: string, layout: TorchMlpLayout): Array<[string, number[]]> {
  const shapes: Array<[string, number[]]> = [];
  const linear = (name: string, input: number, output: number) => shapes.push([`${name}.kernel`, [input, output]], [`${name}.bias`, [output]]);
  const norm = (name: string, width: number) => shapes.push([`${name}.gamma`, [width]], [`${name}.beta`, [width]]);
  const { dims } = layout;
  const last = dims.length - 1;
  if (layout.residual) {
    const width = dims[1];
    linear(`${prefix}.input`, dims[0], width);
    for (let block = 0; block < residualBlockCount(layout); block++) {
      if (layout.layerNorm) norm(`${prefix}.blocks.${block}.norm1`, width);
      linear(`${prefix}.blocks.${block}.l1`, width, width);
      if (layout.layerNorm) norm(`${prefix}.blocks.${block}.norm2`, width);
      linear(`${prefix}.blocks.${block}.l2`, width, width);
    }
    linear(`${prefix}.output`, width, dims[last]);
    return shapes;
  }
  for (let layer = 0; layer + 1 < last; layer++) {
    linear(`${prefix}.layers.${layer}`, dims[layer], dims[layer + 1]);
    if (layout.layerNorm) norm(`${prefix}.norms.${layer}`, dims[layer + 1]);
  }
  linear(`${prefix}.output`, dims[last - 1], dims[last]);
  return shapes;
}

/**
 * The hidden stream and the output of the layout on x [..., dims[0]]. `hidden` is what enters the output layer
 * (the `value_on: expert` features).
 */
export function torchMlp(param: ParamLookup, prefix: string, layout: TorchMlpLayout, x: tf.Tensor): { output: tf.Tensor; hidden: tf.Tensor } {
  const act = (value: tf.Tensor) => torchActivation(layout.activation, value);
  let h = x;
  if (layout.residual) {
    h = dense(param, `${prefix}.input`, h);
    for (let block = 0; block < residualBlockCount(layout); block++) {
      const name = `${prefix}.blocks.${block}`;
      let z = layout.layerNorm ? layerNorm(param, `${name}.norm1`, h, RESIDUAL_NORM_EPSILON) : h;
      z = dense(param, `${name}.l1`, act(z));
      if (layout.layerNorm) z = layerNorm(param, `${name}.norm2`, z, RESIDUAL_NORM_EPSILON);
      h = tf.add(dense(param, `${name}.l2`, act(z)), h);
    }
  } else {
    for (let layer = 0; layer + 2 < layout.dims.length; layer++) {
      h = dense(param, `${prefix}.layers.${layer}`, h);
      if (layout.layerNorm) h = layerNorm(param, `${prefix}.norms.${layer}`, h, PLAIN_NORM_EPSILON);
      h = act(h);
    }
  }
  return { output: dense(param, `${prefix}.output`, h), hidden: h };
}
