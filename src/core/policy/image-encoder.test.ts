import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { ConfigError } from '../errors';
import { createRng } from '../random';
import { cameraFeatures, conv3x3Stride2, imageFeatures } from './image-encoder';
import { checkImageEncoderOptions, convSides, imageEncoderMacs, imageEncoderShapes, type ImageEncoderOptions } from './image-encoder-options';

beforeAll(async () => {
  await useNodeBackend('wasm');
});

/** Float64 3×3 stride-2 'valid' convolution of x [N, H, W, C] with kernel [3, 3, C, O] (HWIO) and bias [O]: y[n, a, b, o] = bias[o] + Σ_{i,j,c} x[n, 2a+i, 2b+j, c]·K[i, j, c, o]. */
function referenceConv(x: Float64Array, [n, h, w, c]: number[], kernel: Float64Array, bias: Float64Array, outChannels: number): { y: Float64Array; shape: number[] } {
  const ho = Math.floor((h - 3) / 2) + 1;
  const wo = Math.floor((w - 3) / 2) + 1;
  const y = new Float64Array(n * ho * wo * outChannels);
  for (let sample = 0; sample < n; sample++) {
    for (let a = 0; a < ho; a++) {
      for (let b = 0; b < wo; b++) {
        for (let o = 0; o < outChannels; o++) {
          let sum = bias[o];
          for (let i = 0; i < 3; i++) {
            for (let j = 0; j < 3; j++) {
              for (let channel = 0; channel < c; channel++) {
                sum += x[((sample * h + 2 * a + i) * w + 2 * b + j) * c + channel] * kernel[((i * 3 + j) * c + channel) * outChannels + o];
              }
            }
          }
          y[((sample * ho + a) * wo + b) * outChannels + o] = sum;
        }
      }
    }
  }
  return { y, shape: [n, ho, wo, outChannels] };
}

const randoms = (rng: ReturnType<typeof createRng>, count: number) => Float64Array.from({ length: count }, () => rng.normal());
const lookup = (values: Map<string, tf.Tensor>) => (name: string) => values.get(name)!;

describe('3×3 stride-2 convolution (gradients as convolutions)', () => {
  it('matches the float64 convolution on even and odd sizes', async () => {
    const rng = createRng(3);
    // 9 → ⌊(9−3)/2⌋+1 = 4, 8 → ⌊5/2⌋+1 = 3: the odd size reads its last row, the even one never reads row 7.
    for (const [height, width] of [[9, 9], [8, 7], [3, 3]]) {
      const shape = [2, height, width, 3];
      const x = randoms(rng, 2 * height * width * 3);
      const kernel = randoms(rng, 3 * 3 * 3 * 5);
      const bias = randoms(rng, 5);
      const expected = referenceConv(x, shape, kernel, bias, 5);
      const params = new Map<string, tf.Tensor>([['conv.kernel', tf.tensor4d(Float32Array.from(kernel), [3, 3, 3, 5])], ['conv.bias', tf.tensor1d(Float32Array.from(bias))]]);
      const output = conv3x3Stride2(lookup(params), 'conv', tf.tensor4d(Float32Array.from(x), shape as [number, number, number, number]));
      expect(output.shape).toEqual(expected.shape);
      const got = await output.data();
      expected.y.forEach((value, index) => expect(got[index]).toBeCloseTo(value, 4));
      tf.dispose([output, ...params.values()]);
    }
  });

  it('gives the float64 gradients: dL/dK[i,j,c,o] = Σ x[n,2a+i,2b+j,c]·G[n,a,b,o], dL/dx scatters G·K back, dL/db = Σ G', async () => {
    const rng = createRng(11);
    // 7 × 7 → 3 × 3 reads every row; 8 × 6 → 3 × 2 never reads row 7 or column 5, whose gradient is 0;
    // 64 × 64 → 31 × 31 is the default camera size.
    for (const [height, width, batch] of [[7, 7, 2], [8, 6, 2], [64, 64, 1]]) {
      const ho = Math.floor((height - 3) / 2) + 1;
      const wo = Math.floor((width - 3) / 2) + 1;
      const shape = [batch, height, width, 2];
      const x = randoms(rng, batch * height * width * 2);
      const kernel = randoms(rng, 3 * 3 * 2 * 3);
      const outShape = [batch, ho, wo, 3];
      // L = Σ conv(x) ⊙ G for a fixed G, so dL/dy = G.
      const g = randoms(rng, batch * ho * wo * 3);
      const [dx, dKernel, dBias] = tf.grads((input: tf.Tensor, k: tf.Tensor, b: tf.Tensor) => {
        const local = new Map([['conv.kernel', k], ['conv.bias', b]]);
        return tf.sum(tf.mul(conv3x3Stride2(lookup(local), 'conv', input as tf.Tensor4D), tf.tensor4d(Float32Array.from(g), outShape as [number, number, number, number])));
      })([tf.tensor4d(Float32Array.from(x), shape as [number, number, number, number]), tf.tensor4d(Float32Array.from(kernel), [3, 3, 2, 3]), tf.zeros([3])]);
      const [dxData, dKernelData, dBiasData] = await Promise.all([dx.data(), dKernel.data(), dBias.data()]);
      const expectedDx = new Float64Array(x.length);
      const expectedDk = new Float64Array(kernel.length);
      const expectedDb = new Float64Array(3);
      for (let n = 0; n < batch; n++) for (let a = 0; a < ho; a++) for (let b = 0; b < wo; b++) for (let o = 0; o < 3; o++) {
        const grad = g[((n * ho + a) * wo + b) * 3 + o];
        expectedDb[o] += grad;
        for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let c = 0; c < 2; c++) {
          const xAt = ((n * height + 2 * a + i) * width + 2 * b + j) * 2 + c;
          const kAt = ((i * 3 + j) * 2 + c) * 3 + o;
          expectedDk[kAt] += x[xAt] * grad;
          expectedDx[xAt] += kernel[kAt] * grad;
        }
      }
      // Sums of up to 961·2 products of N(0, 1) values: float32 keeps about 3 decimals of their magnitude.
      expectedDx.forEach((value, index) => expect(dxData[index]).toBeCloseTo(value, 4));
      expectedDk.forEach((value, index) => expect(dKernelData[index]).toBeCloseTo(value, 2));
      expectedDb.forEach((value, index) => expect(dBiasData[index]).toBeCloseTo(value, 3));
      tf.dispose([dx, dKernel, dBias]);
    }
  });

  it('leaves the pixels\' gradient at zero for the first layer, and its kernel gradient unchanged', async () => {
    const rng = createRng(12);
    const x = tf.tensor4d(Float32Array.from(randoms(rng, 2 * 9 * 9 * 3)), [2, 9, 9, 3]);
    const params = new Map<string, tf.Tensor>([['conv.kernel', tf.tensor4d(Float32Array.from(randoms(rng, 27 * 4)), [3, 3, 3, 4])], ['conv.bias', tf.zeros([4])]]);
    const lossOf = (needsInputGradient: boolean) => (input: tf.Tensor, k: tf.Tensor) =>
      tf.sum(tf.square(conv3x3Stride2(lookup(new Map([['conv.kernel', k], ['conv.bias', params.get('conv.bias')!]])), 'conv', input as tf.Tensor4D, needsInputGradient)));
    const [dxWith, dkWith] = tf.grads(lossOf(true))([x, params.get('conv.kernel')!]);
    const [dxWithout, dkWithout] = tf.grads(lossOf(false))([x, params.get('conv.kernel')!]);
    expect(Math.max(...await dxWith.abs().data())).toBeGreaterThan(0);
    expect(Math.max(...await dxWithout.abs().data())).toBe(0);
    expect(Array.from(await dkWithout.data())).toEqual(Array.from(await dkWith.data()));
    tf.dispose([x, dxWith, dkWith, dxWithout, dkWithout, ...params.values()]);
  });
});

describe('visual encoder', () => {
  const options: ImageEncoderOptions = { cameras: ['front', 'wrist'], size: 9, channels: 3, convChannels: [4, 2], featureDim: 5 };

  /** Float64 forward of one camera: p/255 − 0.5, conv + ReLU per layer, flatten (row, column, channel), dense, LayerNorm (ε 1e-5). */
  function referenceCamera(pixels: Uint8Array, rows: number, weights: Map<string, Float64Array>, prefix: string): Float64Array {
    let x = Float64Array.from(pixels, (value) => value / 255 - 0.5);
    let shape = [rows, options.size, options.size, options.channels];
    options.convChannels.forEach((width, layer) => {
      const out = referenceConv(x, shape, weights.get(`${prefix}.conv.${layer}.kernel`)!, weights.get(`${prefix}.conv.${layer}.bias`)!, width);
      x = out.y.map((value) => Math.max(0, value));
      shape = out.shape;
    });
    const flat = x.length / rows;
    const kernel = weights.get(`${prefix}.project.kernel`)!;
    const bias = weights.get(`${prefix}.project.bias`)!;
    const features = new Float64Array(rows * options.featureDim);
    for (let row = 0; row < rows; row++) {
      const z = Array.from({ length: options.featureDim }, (_, o) => bias[o] + Array.from({ length: flat }, (_, i) => x[row * flat + i] * kernel[i * options.featureDim + o]).reduce((sum, term) => sum + term, 0));
      const mean = z.reduce((sum, value) => sum + value, 0) / z.length;
      const variance = z.reduce((sum, value) => sum + (value - mean) ** 2, 0) / z.length;
      z.forEach((value, o) => {
        features[row * options.featureDim + o] = ((value - mean) / Math.sqrt(variance + 1e-5)) * weights.get(`${prefix}.norm.gamma`)![o] + weights.get(`${prefix}.norm.beta`)![o];
      });
    }
    return features;
  }

  it('encodes each camera with its own CNN and concatenates the features, as the float64 forward does', async () => {
    const rng = createRng(21);
    const weights = new Map<string, Float64Array>();
    const params = new Map<string, tf.Tensor>();
    for (const [name, shape] of imageEncoderShapes(options)) {
      const values = randoms(rng, shape.reduce((product, size) => product * size, 1)).map((value) => 0.5 * value);
      weights.set(name, values);
      params.set(name, tf.tensor(Float32Array.from(values), shape));
    }
    const rows = 3;
    const perCamera = options.size * options.size * options.channels;
    const pixels = Uint8Array.from({ length: rows * 2 * perCamera }, () => rng.int(256));
    const images = tf.tensor(pixels, [rows, 2, options.size, options.size, options.channels], 'float32');
    const features = imageFeatures(lookup(params), options, images);
    expect(features.shape).toEqual([rows, 2 * options.featureDim]);
    const got = await features.data();
    for (let camera = 0; camera < 2; camera++) {
      const cameraPixels = new Uint8Array(rows * perCamera);
      for (let row = 0; row < rows; row++) cameraPixels.set(pixels.subarray((row * 2 + camera) * perCamera, (row * 2 + camera + 1) * perCamera), row * perCamera);
      const expected = referenceCamera(cameraPixels, rows, weights, `encoder.cameras.${camera}`);
      for (let row = 0; row < rows; row++) {
        for (let o = 0; o < options.featureDim; o++) expect(got[row * 2 * options.featureDim + camera * options.featureDim + o]).toBeCloseTo(expected[row * options.featureDim + o], 3);
      }
    }
    // One camera alone through cameraFeatures gives its block.
    const front = cameraFeatures(lookup(params), options, 0, tf.reshape(tf.slice(images, [0, 0, 0, 0, 0], [rows, 1, 9, 9, 3]), [rows, 9, 9, 3]) as tf.Tensor4D);
    const frontData = await front.data();
    for (let row = 0; row < rows; row++) for (let o = 0; o < 5; o++) expect(frontData[row * 5 + o]).toBeCloseTo(got[row * 10 + o], 5);
    tf.dispose([images, features, front, ...params.values()]);
  });

  it('has the stated size at 64×64 rgb: about 115k parameters and 2.0M multiply-adds (4.0 MFLOPs) per camera image', () => {
    const defaults: ImageEncoderOptions = { cameras: ['front'], size: 64, channels: 3, convChannels: [16, 32, 32], featureDim: 64 };
    // Sides 64 → ⌊61/2⌋+1 = 31 → ⌊28/2⌋+1 = 15 → ⌊12/2⌋+1 = 7.
    expect(convSides(defaults)).toEqual([64, 31, 15, 7]);
    // conv0 31²·16 outputs × 3·3·3 = 415,152; conv1 15²·32 × 3·3·16 = 1,036,800; conv2 7²·32 × 3·3·32 = 451,584;
    // projection 7·7·32 = 1568 inputs × 64 = 100,352. Sum 2,003,888.
    expect(imageEncoderMacs(defaults)).toBe(2_003_888);
    expect(imageEncoderMacs({ ...defaults, cameras: ['front', 'wrist'] })).toBe(2 * 2_003_888);
    // conv0 3·3·3·16 + 16 = 448; conv1 3·3·16·32 + 32 = 4640; conv2 3·3·32·32 + 32 = 9248; projection 1568·64 + 64 = 100,416; LayerNorm 2·64 = 128.
    const parameters = imageEncoderShapes(defaults).reduce((sum, [, shape]) => sum + shape.reduce((product, size) => product * size, 1), 0);
    expect(parameters).toBe(448 + 4640 + 9248 + 100_416 + 128);
  });

  it('refuses a stack that shrinks the images to nothing, and a camera list that is empty, each with one sentence', () => {
    const tooDeep = () => checkImageEncoderOptions({ cameras: ['front'], size: 16, channels: 3, convChannels: [8, 8, 8, 8], featureDim: 8 });
    // 16 → 7 → 3 → 1 → ⌊(1−3)/2⌋+1 = 0.
    expect(tooDeep).toThrow(ConfigError);
    expect(tooDeep).toThrow('policy.cnn_channels has 4 stride-2 layers, which shrink 16×16 images to nothing; use fewer layers or a larger env.image_size');
    expect(() => checkImageEncoderOptions({ cameras: [], size: 16, channels: 3, convChannels: [8], featureDim: 8 })).toThrow('image.cameras must name at least one camera, got []');
  });
});
