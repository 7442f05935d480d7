/**
 * The visual encoder (DESIGN.md §19): per camera, uint8 pixels → [-0.5, 0.5], 3×3 stride-2 'valid'
 * convolutions with ReLU, flatten, a dense projection and LayerNorm. Each convolution is written as
 * nine strided slices (im2col) and one matmul, so it differentiates on every backend (the wasm
 * backend has no Conv2DBackpropFilter kernel) and reuses the dense layer's fast gradients.
 */
import * as tf from '@tensorflow/tfjs';
import { dense, layerNorm, type ParamLookup } from './layers';
import { cameraPrefix, convOutputSize, IMAGE_KERNEL, type ImageEncoderOptions } from './image-encoder-options';

/**
 * The 3×3 stride-2 'valid' patches of x [N, H, W, C] → [N, Ho, Wo, 9·C], channels ordered (row offset,
 * column offset, channel) as an HWIO kernel flattens. With H and W padded to even sizes, rows split into
 * (pair, parity) and each column pair's two pixels side by side in the channels, the pixel at row 2·o + i
 * is pair o + ⌊i/2⌋, parity i mod 2, so each offset is one rank-5 slice.
 */
export function strideTwoPatches(x: tf.Tensor4D): tf.Tensor4D {
  const [batch, height, width, channels] = x.shape;
  const outHeight = convOutputSize(height);
  const outWidth = convOutputSize(width);
  // The padded row and column (odd sizes) are never read: a valid patch ends at row 2·(Ho − 1) + 2 ≤ H − 1.
  const even = tf.pad(x, [[0, 0], [0, height % 2], [0, width % 2], [0, 0]]);
  const pairs = tf.reshape(even, [batch, (height + (height % 2)) / 2, 2, (width + (width % 2)) / 2, 2 * channels]);
  const patches: tf.Tensor[] = [];
  for (let row = 0; row < IMAGE_KERNEL; row++) {
    for (let column = 0; column < IMAGE_KERNEL; column++) {
      const patch = tf.slice(pairs, [0, row >> 1, row & 1, column >> 1, (column & 1) * channels], [batch, outHeight, 1, outWidth, channels]);
      patches.push(tf.reshape(patch, [batch, outHeight, outWidth, channels]));
    }
  }
  return tf.concat(patches, 3) as tf.Tensor4D;
}

/** One 3×3 stride-2 convolution with `${prefix}.kernel` [3, 3, in, out] and `${prefix}.bias` [out]: x [N, H, W, in] → [N, Ho, Wo, out]. */
export function conv3x3Stride2(param: ParamLookup, prefix: string, x: tf.Tensor4D): tf.Tensor4D {
  const kernel = param(`${prefix}.kernel`) as tf.Tensor4D;
  const [kernelRows, kernelColumns, inputChannels, outputChannels] = kernel.shape;
  const flatKernel = tf.reshape(kernel, [kernelRows * kernelColumns * inputChannels, outputChannels]);
  const flat = (name: string) => (name === `${prefix}.kernel` ? flatKernel : param(name));
  return dense(flat, prefix, strideTwoPatches(x)) as tf.Tensor4D;
}

/** uint8 pixel values (as floats 0..255) → centred [-0.5, 0.5]. */
export function centredPixels(pixels: tf.Tensor): tf.Tensor {
  return tf.sub(tf.mul(pixels, 1 / 255), 0.5);
}

/** One camera's images [N, S, S, C] (values 0..255) → features [N, featureDim]. */
export function cameraFeatures(param: ParamLookup, options: ImageEncoderOptions, cameraIndex: number, pixels: tf.Tensor4D): tf.Tensor2D {
  const prefix = cameraPrefix(cameraIndex);
  let x = centredPixels(pixels) as tf.Tensor4D;
  options.convChannels.forEach((_, layer) => {
    x = tf.relu(conv3x3Stride2(param, `${prefix}.conv.${layer}`, x));
  });
  const flat = tf.reshape(x, [x.shape[0], -1]);
  return layerNorm(param, `${prefix}.norm`, dense(param, `${prefix}.project`, flat)) as tf.Tensor2D;
}

/** Images [N, cameras, S, S, C] (values 0..255) → features [N, cameras·featureDim], camera blocks in layout order. */
export function imageFeatures(param: ParamLookup, options: ImageEncoderOptions, images: tf.Tensor): tf.Tensor2D {
  return tf.tidy(() => {
    const { size, channels } = options;
    const rows = images.shape[0];
    const perCamera = options.cameras.map((_, cameraIndex) => {
      const pixels = tf.reshape(tf.slice(images, [0, cameraIndex, 0, 0, 0], [rows, 1, size, size, channels]), [rows, size, size, channels]) as tf.Tensor4D;
      return cameraFeatures(param, options, cameraIndex, pixels);
    });
    return (perCamera.length === 1 ? perCamera[0] : tf.concat(perCamera, 1)) as tf.Tensor2D;
  });
}
