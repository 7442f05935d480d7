import { CheckpointError } from '../../errors';
import { obsTokenCount, type FlowPolicyOptions } from '../../policy/options';
import type { GraphBuilder } from './graph-builder';
import type { GraphParam } from './graph-params';
import { imageFeatureNodes } from './image-encoder';
import { dense, layerNorm, mlpLayers } from './layers';
import { reflowObsNodes } from './velocity-reflow';

/**
 * PointNet over frames [B, T, N·3 + D] (policy/obs-encoder.ts): the per-point MLP over the N points
 * [B, T, N, 3], a max over the points, projection and LayerNorm, then the frame's proprioception
 * appended → [B, T, pointFeatureDim + D]. Slice, Reshape, MatMul/Add/Sigmoid/Mul, ReduceMax, Concat.
 */
function pointNetTokens(g: GraphBuilder, param: GraphParam, options: FlowPolicyOptions, frames: string): string {
  const pointValues = options.numPoints * 3;
  const axis = g.int64s([2]);
  const flatPoints = g.op('Slice', [frames, g.int64s([0]), g.int64s([pointValues]), axis], {}, 'points_flat');
  const points = g.op('Reshape', [flatPoints, g.int64s([0, 0, options.numPoints, 3])], {}, 'points');
  const proprio = g.op('Slice', [frames, g.int64s([pointValues]), g.int64s([pointValues + options.obsDim]), axis], {}, 'proprio');
  const perPoint = mlpLayers(g, param, 'encoder.points', points, options.encoderHidden.length);
  const pooled = g.op('ReduceMax', [perPoint], { axes: { ints: [2] }, keepdims: { int: 0 } }, 'pooled');
  const projected = layerNorm(g, param, 'encoder.norm', dense(g, param, 'encoder.project', pooled));
  return g.op('Concat', [projected, proprio], { axis: { int: 2 } }, 'obs_tokens');
}

/**
 * An image policy's one token (policy/obs-encoder.ts `encodeObs`): [each camera's CNN features | the normalized
 * proprioception] → [B, 1, cameras·featureDim + D]. Images keep no history, so the frame is the one observation.
 */
function imageTokens(g: GraphBuilder, param: GraphParam, options: FlowPolicyOptions, normalizedObs: string, images: string | undefined): string {
  if (!images) throw new CheckpointError('an image policy\'s ONNX graph needs an images input, and none was given');
  const features = g.op('Unsqueeze', [imageFeatureNodes(g, param, options.image!, images), g.int64s([1])], {}, 'image_token');
  return g.op('Concat', [features, normalizedObs], { axis: { int: 2 } }, 'obs_tokens');
}

/**
 * Normalized observations [B, nObsSteps, frame] (and an image policy's uint8 images) → observation tokens
 * [B, tokens, tokenDim] (policy/options.ts `obsTokenCount`): a state encoder feeding the MLP sees the flattened
 * history as one token; otherwise each frame is encoded alone with shared weights.
 */
export function encodeObsNodes(g: GraphBuilder, param: GraphParam, options: FlowPolicyOptions, normalizedObs: string, images?: string): string {
  if (options.obsEncoder === 'pointcloud') return pointNetTokens(g, param, options, normalizedObs);
  if (options.obsEncoder === 'image') return imageTokens(g, param, options, normalizedObs, images);
  const frames = obsTokenCount(options) === 1
    ? g.op('Reshape', [normalizedObs, g.int64s([0, 1, options.nObsSteps * options.obsDim])], {}, 'obs_history')
    : normalizedObs;
  if (options.velocityNet === 'reflow_mlp') return reflowObsNodes(g, param, options, frames);
  return mlpLayers(g, param, 'encoder', frames, options.encoderHidden.length);
}
