import type { FlowPolicyOptions } from '../../policy/options';
import type { GraphBuilder } from './graph-builder';
import type { GraphParam } from './graph-params';
import { dense, silu } from './layers';

/**
 * The residual MLP velocity net (policy/velocity-mlp.ts) for one denoising step: input
 * Concat[x_t [B, H·A], obs features [B, F], step embedding [B, E]] → dense + SiLU, then blocks
 * (a residual Add where the width stays) → velocity [B, H·A]. Concat, MatMul, Add, Sigmoid, Mul.
 */
export function velocityMlpNodes(g: GraphBuilder, param: GraphParam, options: FlowPolicyOptions, xFlat: string, features: string, stepEmbedding: string): string {
  const hiddenSizes = options.velocityHidden;
  const input = g.op('Concat', [xFlat, features, stepEmbedding], { axis: { int: 1 } }, 'velocity_input');
  let h = silu(g, dense(g, param, 'velocity.input', input));
  for (let blockIndex = 0; blockIndex + 1 < hiddenSizes.length; blockIndex++) {
    const z = silu(g, dense(g, param, `velocity.blocks.${blockIndex}.dense`, h));
    h = hiddenSizes[blockIndex] === hiddenSizes[blockIndex + 1] ? g.op('Add', [h, z], {}, 'residual') : z;
  }
  return dense(g, param, 'velocity.output', h);
}
