import type { TorchActivation, TorchMlpLayout } from '../../policy/torch-mlp';
import { RESIDUAL_NORM_EPSILON, PLAIN_NORM_EPSILON, residualBlockCount } from '../../policy/torch-mlp';
import type { GraphBuilder } from './graph-builder';
import type { GraphParam } from './graph-params';
import { dense, layerNorm } from './layers';

/** policy/torch-mlp.ts `torchActivation` as ONNX nodes (opset 17: GELU spelled out with Erf, Mish as x·tanh(softplus x)). */
export function activationNodes(g: GraphBuilder, activation: TorchActivation, x: string): string {
  switch (activation) {
    case 'ReLU': return g.op('Relu', [x]);
    case 'ELU': return g.op('Elu', [x], { alpha: { float: 1 } });
    case 'Tanh': return g.op('Tanh', [x]);
    case 'Softplus': return g.op('Softplus', [x]);
    case 'Mish': return g.op('Mul', [x, g.op('Tanh', [g.op('Softplus', [x])])], {}, 'mish');
    case 'SiLU': return g.op('Mul', [x, g.op('Sigmoid', [x])], {}, 'silu');
    case 'GELU': {
      const erf = g.op('Erf', [g.op('Mul', [x, g.floatScalar(Math.SQRT1_2)])]);
      return g.op('Mul', [g.op('Mul', [x, g.floatScalar(0.5)]), g.op('Add', [erf, g.floatScalar(1)])], {}, 'gelu');
    }
    case 'Identity': return x;
  }
}

/** policy/torch-mlp.ts `torchMlp` (the peers' MLP and ResidualMLP) as ONNX nodes; returns the output. */
export function torchMlpNodes(g: GraphBuilder, param: GraphParam, prefix: string, layout: TorchMlpLayout, x: string): string {
  const act = (value: string) => activationNodes(g, layout.activation, value);
  let h = x;
  if (layout.residual) {
    h = dense(g, param, `${prefix}.input`, h);
    for (let block = 0; block < residualBlockCount(layout); block++) {
      const name = `${prefix}.blocks.${block}`;
      let z = layout.layerNorm ? layerNorm(g, param, `${name}.norm1`, h, RESIDUAL_NORM_EPSILON) : h;
      z = dense(g, param, `${name}.l1`, act(z));
      if (layout.layerNorm) z = layerNorm(g, param, `${name}.norm2`, z, RESIDUAL_NORM_EPSILON);
      h = g.op('Add', [dense(g, param, `${name}.l2`, act(z)), h], {}, 'residual');
    }
  } else {
    for (let layer = 0; layer + 2 < layout.dims.length; layer++) {
      h = dense(g, param, `${prefix}.layers.${layer}`, h);
      if (layout.layerNorm) h = layerNorm(g, param, `${prefix}.norms.${layer}`, h, PLAIN_NORM_EPSILON);
      h = act(h);
    }
  }
  return dense(g, param, `${prefix}.output`, h);
}
