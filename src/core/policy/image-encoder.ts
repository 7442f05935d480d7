/**
 * The visual encoder (DESIGN.md §19): per camera, uint8 pixels → [-0.5, 0.5], 3×3 stride-2 'valid'
 * convolutions with ReLU, flatten, a dense projection and LayerNorm. The convolutions' gradients are
 * convolutions as well (strided-conv.ts), so they run on every backend's fast kernel.
 */
import * as tf from '@tensorflow/tfjs';
import { dense, layerNorm, type ParamLookup } from './layers';
import { cameraPrefix, type ImageEncoderOptions } from './image-encoder-options';
import { stridedConv } from './strided-conv';

/**
 * One 3×3 stride-2 convolution with `${prefix}.kernel` [3, 3, in, out] and `${prefix}.bias` [out]: x [N, H, W, in] →
 * [N, Ho, Wo, out]. `needsInputGradient` false for the layer on the pixels, whose gradient nothing reads.
 */
export function conv3x3Stride2(param: ParamLookup, prefix: string, x: tf.Tensor4D, needsInputGradient = true): tf.Tensor4D {
  return tf.add(stridedConv(x, param(`${prefix}.kernel`) as tf.Tensor4D, 2, needsInputGradient), param(`${prefix}.bias`));
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
    x = tf.relu(conv3x3Stride2(param, `${prefix}.conv.${layer}`, x, layer > 0));
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
