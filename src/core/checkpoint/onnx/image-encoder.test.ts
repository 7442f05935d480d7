import * as tf from '@tensorflow/tfjs';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../../cli/node-backend';
import { imageFeatures } from '../../policy/image-encoder';
import type { ImageEncoderOptions } from '../../policy/image-encoder-options';
import type { WeightEntry } from '../../policy/weight-check';
import { ONNX_IR_VERSION, ONNX_OPSET } from './export-onnx';
import { GraphBuilder } from './graph-builder';
import { graphParams } from './graph-params';
import { imageFeatureNodes } from './image-encoder';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** One 5×5 rgb camera, one stride-2 layer of 2 channels (5 → ⌊(5 − 3)/2⌋ + 1 = 2), 2 features. */
const OPTIONS: ImageEncoderOptions = { cameras: ['front'], size: 5, channels: 3, convChannels: [2], featureDim: 2 };

/** Red 0 everywhere but 255 at row 2, column 2; green 255 and blue 0 everywhere (no kernel reads them). */
function handImage(): Uint8Array {
  const pixels = new Uint8Array(5 * 5 * 3);
  for (let pixel = 0; pixel < 25; pixel++) pixels[pixel * 3 + 1] = 255;
  pixels[(2 * 5 + 2) * 3] = 255;
  return pixels;
}

/**
 * HWIO kernel [3, 3, 3, 2]: output channel 0 reads red at kernel row 2, column 0; channel 1 reads red at row 0,
 * column 0, with bias 1. The projection [8, 2] copies flat value 2 to feature 0 and flat value 7 to feature 1.
 */
function handWeights(): Map<string, WeightEntry> {
  const kernel = new Float32Array(3 * 3 * 3 * 2);
  const at = (row: number, column: number, input: number, output: number) => ((row * 3 + column) * 3 + input) * 2 + output;
  kernel[at(2, 0, 0, 0)] = 1;
  kernel[at(0, 0, 0, 1)] = 1;
  const project = new Float32Array(8 * 2);
  project[2 * 2 + 0] = 1;
  project[7 * 2 + 1] = 1;
  return new Map<string, WeightEntry>([
    ['encoder.cameras.0.conv.0.kernel', { shape: [3, 3, 3, 2], data: kernel }],
    ['encoder.cameras.0.conv.0.bias', { shape: [2], data: Float32Array.of(0, 1) }],
    ['encoder.cameras.0.project.kernel', { shape: [8, 2], data: project }],
    ['encoder.cameras.0.project.bias', { shape: [2], data: Float32Array.of(0, 0) }],
    ['encoder.cameras.0.norm.gamma', { shape: [2], data: Float32Array.of(2, 3) }],
    ['encoder.cameras.0.norm.beta', { shape: [2], data: Float32Array.of(0.25, -1) }],
  ]);
}

/**
 * The hand computation. Centred red x/255 − 0.5 is −0.5 everywhere but 0.5 at (2, 2). Output (r, c) of a 3×3 stride-2
 * 'valid' conv reads pixel (2r + i, 2c + j) at kernel offset (i, j):
 *   channel 0 = ReLU(red(2r + 2, 2c)):     (0,0) red(2,0) = −0.5 → 0; (0,1) red(2,2) = 0.5 → 0.5; (1,0) red(4,0) → 0; (1,1) red(4,2) → 0
 *   channel 1 = ReLU(red(2r, 2c) + 1):     (0,0) −0.5 + 1 = 0.5; (0,1) 0.5; (1,0) 0.5; (1,1) red(2,2) 0.5 + 1 = 1.5
 * Flattened NHWC, index (2r + c)·2 + channel: [0, 0.5, 0.5, 0.5, 0, 0.5, 0, 1.5], so the projection gives
 * [flat[2], flat[7]] = [0.5, 1.5]. LayerNorm: μ = 1, var = (0.5² + 0.5²)/2 = 0.25, √(0.25 + 1e-5) = 0.5000099999,
 * (∓0.5)/0.5000099999 = ∓0.9999800006; × γ [2, 3] + β [0.25, −1] = [−1.9999600012 + 0.25, 2.9999400018 − 1]
 * = [−1.7499600012, 1.9999400018].
 * (A transposed kernel would read red(2r, 2c + 2) in channel 0 and put its 0.5 at flat[4], not flat[2]; an NCHW flatten
 * would put channel 0's (1, 0) = 0 at flat[2].)
 */
const EXPECTED = [-1.7499600012, 1.9999400018];

describe('the ONNX image encoder against a hand computation', () => {
  it('centres the uint8 pixels, convolves 3×3 with stride 2 and no padding, flattens NHWC, projects and normalizes', async () => {
    const g = new GraphBuilder();
    const images = g.input('images');
    g.output(imageFeatureNodes(g, graphParams(g, handWeights()), OPTIONS, images), 'features');
    const graph = g.graph('image_encoder', [{ name: 'images', dims: [1, 1, 5, 5, 3], elemType: 'uint8' }], [{ name: 'features', dims: [1, 2] }]);
    const bytes = onnxProto.onnx.ModelProto.encode({ irVersion: ONNX_IR_VERSION, opsetImport: [{ domain: '', version: ONNX_OPSET }], graph }).finish();
    const session = await ort.InferenceSession.create(bytes);
    try {
      const { features } = await session.run({ images: new ort.Tensor('uint8', handImage(), [1, 1, 5, 5, 3]) });
      expect(features.dims).toEqual([1, 2]);
      Array.from(features.data as Float32Array).forEach((value, index) => expect(value).toBeCloseTo(EXPECTED[index], 5));
    } finally {
      await session.release();
    }
  });

  it('the tfjs encoder gives the same hand values (so the test above pins the graph to it)', async () => {
    const weights = handWeights();
    const param = (name: string) => tf.tensor(weights.get(name)!.data, weights.get(name)!.shape);
    const features = tf.tidy(() => imageFeatures(param, OPTIONS, tf.tensor(handImage(), [1, 1, 5, 5, 3], 'float32')));
    Array.from(await features.data()).forEach((value, index) => expect(value).toBeCloseTo(EXPECTED[index], 5));
    features.dispose();
  });
});
