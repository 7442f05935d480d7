/**
 * The building blocks of src/core/policy/layers.ts and adaln.ts as ONNX nodes, op for op, so the
 * graph rounds as the tfjs policy does.
 */
import type { GraphBuilder } from './graph-builder';
import type { GraphParam } from './graph-params';

/** x [..., in] → MatMul(x, `${prefix}.kernel` [in, out]) + `${prefix}.bias` [out]: MatMul, Add. */
export function dense(g: GraphBuilder, param: GraphParam, prefix: string, x: string): string {
  return g.op('Add', [g.op('MatMul', [x, param(`${prefix}.kernel`)]), param(`${prefix}.bias`)], {}, prefix);
}

/** SiLU x·sigmoid(x): Sigmoid, Mul. */
export function silu(g: GraphBuilder, x: string): string {
  return g.op('Mul', [x, g.op('Sigmoid', [x])], {}, 'silu');
}

/** Dense + SiLU for each of `${prefix}.layers.0..count-1`. */
export function mlpLayers(g: GraphBuilder, param: GraphParam, prefix: string, x: string, count: number): string {
  let h = x;
  for (let layerIndex = 0; layerIndex < count; layerIndex++) h = silu(g, dense(g, param, `${prefix}.layers.${layerIndex}`, h));
  return h;
}

/**
 * Mean and centred value over the last axis, as tf.moments computes them: μ = mean(x),
 * var = mean((x − μ)²). Spelled out (ReduceMean, Sub, Mul) rather than one LayerNormalization
 * node, whose CPU kernel takes var = E[x²] − μ² in float32 and loses digits when |μ| ≫ σ.
 */
function centredMoments(g: GraphBuilder, x: string): { centred: string; variance: string } {
  const mean = g.op('ReduceMean', [x], { axes: { ints: [-1] }, keepdims: { int: 1 } }, 'mean');
  const centred = g.op('Sub', [x, mean], {}, 'centred');
  const variance = g.op('ReduceMean', [g.op('Mul', [centred, centred], {}, 'squared')], { axes: { ints: [-1] }, keepdims: { int: 1 } }, 'variance');
  return { centred, variance };
}

/** LayerNorm with `${prefix}.gamma` and `.beta`: (x − μ)/√(var + ε)·γ + β (policy/layers.ts, ε = 1e-5). */
export function layerNorm(g: GraphBuilder, param: GraphParam, prefix: string, x: string, epsilon = 1e-5): string {
  const { centred, variance } = centredMoments(g, x);
  const normalized = g.op('Div', [centred, g.op('Sqrt', [g.op('Add', [variance, g.floatScalar(epsilon)])])], {}, 'normalized');
  return g.op('Add', [g.op('Mul', [normalized, param(`${prefix}.gamma`)]), param(`${prefix}.beta`)], {}, prefix);
}

/** LayerNorm without affine parameters (policy/adaln.ts): (x − μ)·(1/√(var + 1e-6)). */
export function plainLayerNorm(g: GraphBuilder, x: string, epsilon = 1e-6): string {
  const { centred, variance } = centredMoments(g, x);
  const invStd = g.op('Reciprocal', [g.op('Sqrt', [g.op('Add', [variance, g.floatScalar(epsilon)])])], {}, 'inv_std');
  return g.op('Mul', [centred, invStd], {}, 'normalized');
}

/** AdaLN modulation LN(x)·(1 + scale) + shift; x [B, T, D], shift and scale [1, D] or [B, D] broadcast as [.., 1, D]. */
export function modulate(g: GraphBuilder, x: string, shift: string, scale: string): string {
  const onePlusScale = g.op('Unsqueeze', [g.op('Add', [scale, g.floatScalar(1)]), g.int64s([1])]);
  return g.op('Add', [g.op('Mul', [plainLayerNorm(g, x), onePlusScale]), g.op('Unsqueeze', [shift, g.int64s([1])])], {}, 'modulated');
}
