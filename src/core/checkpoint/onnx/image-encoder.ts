/**
 * The visual encoder of policy/image-encoder.ts as ONNX nodes (DESIGN.md §19), for the deterministic
 * policy only: no random shift (an update-time augmentation). The uint8 images [B, cameras, S, S, C]
 * are cast to float and centred as `centredPixels` does, laid out NCHW once, and each camera runs its
 * 3×3 stride-2 'valid' convolutions with ReLU, goes back to NHWC to flatten in tfjs's (row, column,
 * channel) order, then its projection and LayerNorm; the camera blocks are concatenated in layout order.
 */
import onnxProto from 'onnx-proto';
import { cameraPrefix, IMAGE_KERNEL, IMAGE_STRIDE, type ImageEncoderOptions } from '../../policy/image-encoder-options';
import type { GraphBuilder } from './graph-builder';
import type { GraphParam } from './graph-params';
import { dense, layerNorm } from './layers';

/** HWIO [3, 3, in, out], as the tfjs kernel is stored, → OIHW [out, in, 3, 3], as ONNX Conv reads its weights. */
const HWIO_TO_OIHW = [3, 2, 0, 1];
/** NHWC → NCHW and back. */
const NHWC_TO_NCHW_PER_CAMERA = [0, 1, 4, 2, 3];
const NCHW_TO_NHWC = [0, 2, 3, 1];

/**
 * uint8 pixels → float (Cast) → x·(1/255) − 0.5 (Mul, Sub): the two float32 ops of `centredPixels`, in its order,
 * so 0 → −0.5, 255 → 255·fround(1/255) − 0.5 = 0.5 (to float32 rounding).
 */
export function centredPixelNodes(g: GraphBuilder, images: string): string {
  const pixels = g.op('Cast', [images], { to: { int: onnxProto.onnx.TensorProto.DataType.FLOAT } }, 'pixels');
  return g.op('Sub', [g.op('Mul', [pixels, g.floatScalar(1 / 255)]), g.floatScalar(0.5)], {}, 'centred_pixels');
}

/**
 * One 3×3 stride-2 convolution of `conv3x3Stride2` with ReLU: x [N, in, H, W] → [N, out, ⌊(H − 3)/2⌋ + 1, ⌊(W − 3)/2⌋ + 1].
 * tfjs pads odd sides to even but never reads the padding, so this is a Conv with no padding at all ('valid').
 */
function convReluNodes(g: GraphBuilder, param: GraphParam, prefix: string, x: string): string {
  const kernel = g.op('Transpose', [param(`${prefix}.kernel`)], { perm: { ints: HWIO_TO_OIHW } }, `${prefix}.kernel_oihw`);
  const conv = g.op('Conv', [x, kernel, param(`${prefix}.bias`)], {
    kernel_shape: { ints: [IMAGE_KERNEL, IMAGE_KERNEL] },
    strides: { ints: [IMAGE_STRIDE, IMAGE_STRIDE] },
    pads: { ints: [0, 0, 0, 0] },
  }, prefix);
  return g.op('Relu', [conv], {}, `${prefix}.relu`);
}

/** Camera `cameraIndex`'s centred NCHW images [B, C, S, S] → its features [B, featureDim] (`cameraFeatures`). */
function cameraFeatureNodes(g: GraphBuilder, param: GraphParam, options: ImageEncoderOptions, cameraIndex: number, nchw: string): string {
  const prefix = cameraPrefix(cameraIndex);
  const sliced = g.op('Slice', [nchw, g.int64s([cameraIndex]), g.int64s([cameraIndex + 1]), g.int64s([1])], {}, `${prefix}.slice`);
  let x = g.op('Squeeze', [sliced, g.int64s([1])], {}, `${prefix}.images`);
  options.convChannels.forEach((_, layer) => {
    x = convReluNodes(g, param, `${prefix}.conv.${layer}`, x);
  });
  // tf.reshape of the NHWC activations [B, Ho, Wo, out] flattens rows, then columns, then channels.
  const flat = g.op('Reshape', [g.op('Transpose', [x], { perm: { ints: NCHW_TO_NHWC } }, `${prefix}.nhwc`), g.int64s([0, -1])], {}, `${prefix}.flat`);
  return layerNorm(g, param, `${prefix}.norm`, dense(g, param, `${prefix}.project`, flat));
}

/** uint8 images [B, cameras, S, S, C] → features [B, cameras·featureDim] (`imageFeatures`, camera blocks in layout order). */
export function imageFeatureNodes(g: GraphBuilder, param: GraphParam, options: ImageEncoderOptions, images: string): string {
  const nchw = g.op('Transpose', [centredPixelNodes(g, images)], { perm: { ints: NHWC_TO_NCHW_PER_CAMERA } }, 'images_nchw');
  const perCamera = options.cameras.map((_, cameraIndex) => cameraFeatureNodes(g, param, options, cameraIndex, nchw));
  return perCamera.length === 1 ? perCamera[0] : g.op('Concat', perCamera, { axis: { int: 1 } }, 'image_features');
}
