/**
 * The UNet1D velocity net (policy/velocity-unet1d.ts and the layers it uses) as ONNX nodes, op for op where the op
 * exists (Pad/Slice/Concat/MatMul convolutions, GroupNorm spelled out), so the graph rounds as the tfjs policy does.
 */
import type { WeightEntry } from '../../policy/flow-policy';
import { GROUP_NORM_EPSILON } from '../../policy/group-norm';
import type { FlowPolicyOptions } from '../../policy/options';
import type { GraphBuilder } from './graph-builder';
import type { GraphParam } from './graph-params';
import { dense, plainLayerNorm } from './layers';

/** Mish x·tanh(softplus(x)) (policy/mish.ts): Softplus, Tanh, Mul. */
function mish(g: GraphBuilder, x: string): string {
  return g.op('Mul', [x, g.op('Tanh', [g.op('Softplus', [x])])], {}, 'mish');
}

/** `${prefix}.kernel` [taps, in, out] as a [taps·in, out] matrix (a Reshape of the stored initializer). */
function tapsKernel(g: GraphBuilder, param: GraphParam, prefix: string, weights: ReadonlyMap<string, WeightEntry>): string {
  const [taps, inChannels, outChannels] = (weights.get(`${prefix}.kernel`) as WeightEntry).shape;
  return g.op('Reshape', [param(`${prefix}.kernel`), g.int64s([taps * inChannels, outChannels])], {}, `${prefix}.matrix`);
}

/** Columns [B, L, C] side by side on the channels, times the taps' matrix, plus the bias (policy/conv1d.ts `tapsMatmul`). */
function tapsMatmul(g: GraphBuilder, columns: string[], matrix: string, bias: string, hint: string): string {
  const side = columns.length === 1 ? columns[0] : g.op('Concat', columns, { axis: { int: 2 } }, 'columns');
  return g.op('Add', [g.op('MatMul', [side, matrix]), bias], {}, hint);
}

/** Positions [start, start + length) of x [B, ·, C] (axis 1). */
function positions(g: GraphBuilder, x: string, start: number, length: number): string {
  return g.op('Slice', [x, g.int64s([start]), g.int64s([start + length]), g.int64s([1])], {}, 'window');
}

/** Zero rows before and after on the positions axis of x [B, L, C]. */
function padPositions(g: GraphBuilder, x: string, before: number, after: number): string {
  return g.op('Pad', [x, g.int64s([0, before, 0, 0, after, 0])], {}, 'padded');
}

/** Context of one UNet1D graph: builder, parameters, their shapes, the sizes and Mish(cond) [B, D]. */
interface UnetGraph {
  g: GraphBuilder;
  param: GraphParam;
  weights: ReadonlyMap<string, WeightEntry>;
  options: FlowPolicyOptions;
  activatedCond: string;
}

/** Same-padded conv over x [B, L, in] of length `length` (policy/conv1d.ts `conv1d`). */
function conv1d(u: UnetGraph, prefix: string, x: string, length: number): string {
  const taps = (u.weights.get(`${prefix}.kernel`) as WeightEntry).shape[0];
  const half = (taps - 1) / 2;
  const padded = taps === 1 ? x : padPositions(u.g, x, half, half);
  const columns = Array.from({ length: taps }, (_, tap) => (taps === 1 ? x : positions(u.g, padded, tap, length)));
  return tapsMatmul(u.g, columns, tapsKernel(u.g, u.param, prefix, u.weights), u.param(`${prefix}.bias`), prefix);
}

/** GroupNorm over x [B, L, C] (policy/group-norm.ts): groups contiguous on the last axis, standardized, γ and β. */
function groupNorm(u: UnetGraph, prefix: string, x: string, length: number, channels: number): string {
  const { g } = u;
  const groups = u.options.unetGroups;
  const perGroup = channels / groups;
  const split = g.op('Reshape', [x, g.int64s([0, length, groups, perGroup])], {}, 'groups');
  const grouped = g.op('Reshape', [g.op('Transpose', [split], { perm: { ints: [0, 2, 1, 3] } }), g.int64s([0, groups, length * perGroup])], {}, 'grouped');
  const standardized = g.op('Reshape', [plainLayerNorm(g, grouped, GROUP_NORM_EPSILON), g.int64s([0, groups, length, perGroup])]);
  const back = g.op('Reshape', [g.op('Transpose', [standardized], { perm: { ints: [0, 2, 1, 3] } }), g.int64s([0, length, channels])], {}, 'normalized');
  return g.op('Add', [g.op('Mul', [back, u.param(`${prefix}.gamma`)]), u.param(`${prefix}.beta`)], {}, prefix);
}

/** Conv → GroupNorm → Mish (policy/unet1d-block.ts `convBlock`), output width `channels`. */
function convBlock(u: UnetGraph, prefix: string, x: string, length: number, channels: number): string {
  return mish(u.g, groupNorm(u, `${prefix}.norm`, conv1d(u, `${prefix}.conv`, x, length), length, channels));
}

/** The conditional residual block (policy/unet1d-block.ts `residualBlock`): FiLM between the two conv blocks, a skip. */
function residualBlock(u: UnetGraph, prefix: string, x: string, length: number, inChannels: number, outChannels: number): string {
  const { g } = u;
  const modulation = g.op('Unsqueeze', [dense(g, u.param, `${prefix}.film`, u.activatedCond), g.int64s([1])], {}, 'film');
  const [scale, bias] = g.opOutputs('Split', [modulation, g.int64s([outChannels, outChannels])], 2, { axis: { int: 2 } }, 'film_part');
  const first = convBlock(u, `${prefix}.block0`, x, length, outChannels);
  const modulated = g.op('Add', [g.op('Mul', [first, scale]), bias], {}, 'modulated');
  const out = convBlock(u, `${prefix}.block1`, modulated, length, outChannels);
  const skip = inChannels === outChannels ? x : dense(g, u.param, `${prefix}.residual`, x);
  return g.op('Add', [out, skip], {}, 'residual_block');
}

/** Strided down-sampling (policy/conv1d.ts `downsample1d`): even and odd positions from one Reshape. */
function downsample(u: UnetGraph, prefix: string, x: string, length: number, channels: number): string {
  const { g } = u;
  const pairs = g.op('Reshape', [x, g.int64s([0, length / 2, 2 * channels])], {}, 'pairs');
  const axis = g.int64s([2]);
  const even = g.op('Slice', [pairs, g.int64s([0]), g.int64s([channels]), axis], {}, 'even');
  const odd = g.op('Slice', [pairs, g.int64s([channels]), g.int64s([2 * channels]), axis], {}, 'odd');
  const previousOdd = positions(g, padPositions(g, odd, 1, 0), 0, length / 2);
  return tapsMatmul(g, [previousOdd, even, odd], tapsKernel(g, u.param, prefix, u.weights), u.param(`${prefix}.bias`), prefix);
}

/**
 * Transposed-conv up-sampling (policy/conv1d.ts `upsample1d`): [x[m−1] | x[m] | x[m+1]] · [[K₃, 0], [K₁, K₂], [0, K₀]],
 * the phase matrix built here from the kernel's values (a copy, no arithmetic), then a Reshape interleaves the phases.
 */
function upsample(u: UnetGraph, prefix: string, x: string, length: number, channels: number): string {
  const { g } = u;
  const kernel = (u.weights.get(`${prefix}.kernel`) as WeightEntry).data;
  const bias = (u.weights.get(`${prefix}.bias`) as WeightEntry).data;
  const block = channels * channels;
  const phases = new Float32Array(3 * channels * 2 * channels);
  // Row block r of the side-by-side columns (x[m−1], x[m], x[m+1]); column half 0 is y[2m], half 1 is y[2m+1].
  const place = (rowBlock: number, half: number, tap: number) => {
    for (let input = 0; input < channels; input++) {
      for (let output = 0; output < channels; output++) phases[(rowBlock * channels + input) * 2 * channels + half * channels + output] = kernel[tap * block + input * channels + output];
    }
  };
  place(0, 0, 3);
  place(1, 0, 1);
  place(1, 1, 2);
  place(2, 1, 0);
  const matrix = g.floatTensor(`${prefix}.phases`, phases, [3 * channels, 2 * channels]);
  const doubledBias = g.floatTensor(`${prefix}.phase_bias`, Float32Array.from([...bias, ...bias]), [2 * channels]);
  const padded = padPositions(g, x, 1, 1);
  const both = tapsMatmul(g, [positions(g, padded, 0, length), x, positions(g, padded, 2, length)], matrix, doubledBias, prefix);
  return g.op('Reshape', [both, g.int64s([0, 2 * length, channels])], {}, 'upsampled');
}

/** sinusoid [1, E] → Linear → Mish → Linear (policy/velocity-unet1d.ts `embeddingMlp`). */
function embeddingMlp(g: GraphBuilder, param: GraphParam, prefix: string, sinusoid: string): string {
  return dense(g, param, `${prefix}.1`, mish(g, dense(g, param, `${prefix}.0`, sinusoid)));
}

/**
 * The UNet1D for one denoising step: x_t [B, H, A], the step's [sinusoid(t) | sinusoid(d)] as a [1, E or 2E] constant
 * (every chain shares t and d), features [B, F] and the batch's [B] shape → velocity (or ε) [B, H, A].
 */
export function velocityUnet1dNodes(
  g: GraphBuilder, param: GraphParam, weights: ReadonlyMap<string, WeightEntry>, options: FlowPolicyOptions,
  x: string, stepSinusoids: string, features: string, batchSize: string,
): string {
  const dim = options.timeEmbedDim;
  const axis = g.int64s([1]);
  const sinusoid = (index: number) => g.op('Slice', [stepSinusoids, g.int64s([index * dim]), g.int64s([(index + 1) * dim]), axis], {}, 'sinusoid');
  const embeds = [embeddingMlp(g, param, 'velocity.time', sinusoid(0))];
  if (options.shortcut) embeds.push(embeddingMlp(g, param, 'velocity.step', sinusoid(1)));
  const embedWidth = embeds.length * dim;
  const embedShape = g.op('Concat', [batchSize, g.int64s([embedWidth])], { axis: { int: 0 } }, 'embedding_shape');
  const stepEmbedding = g.op('Expand', [embeds.length === 1 ? embeds[0] : g.op('Concat', embeds, { axis: { int: 1 } }), embedShape], {}, 'step_embedding');
  const cond = g.op('Concat', [stepEmbedding, features], { axis: { int: 1 } }, 'cond');
  const u: UnetGraph = { g, param, weights, options, activatedCond: mish(g, cond) };
  const dims = options.unetDims;
  let length = options.horizon;
  let h = x;
  let width = options.actionDim;
  const skips: string[] = [];
  dims.forEach((levelWidth, level) => {
    h = residualBlock(u, `velocity.down.${level}.res0`, h, length, width, levelWidth);
    h = residualBlock(u, `velocity.down.${level}.res1`, h, length, levelWidth, levelWidth);
    width = levelWidth;
    skips.push(h);
    if (level + 1 < dims.length) {
      h = downsample(u, `velocity.down.${level}.downsample`, h, length, width);
      length /= 2;
    }
  });
  h = residualBlock(u, 'velocity.mid.res1', residualBlock(u, 'velocity.mid.res0', h, length, width, width), length, width, width);
  for (let upIndex = 0; upIndex + 1 < dims.length; upIndex++) {
    const finer = dims[dims.length - 2 - upIndex];
    h = g.op('Concat', [h, skips[dims.length - 1 - upIndex]], { axis: { int: 2 } }, 'skip_concat');
    h = residualBlock(u, `velocity.up.${upIndex}.res0`, h, length, 2 * width, finer);
    h = residualBlock(u, `velocity.up.${upIndex}.res1`, h, length, finer, finer);
    width = finer;
    h = upsample(u, `velocity.up.${upIndex}.upsample`, h, length, width);
    length *= 2;
  }
  return dense(g, param, 'velocity.output', convBlock(u, 'velocity.final', h, length, width));
}
