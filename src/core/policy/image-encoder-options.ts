/**
 * The visual encoder's architecture (DESIGN.md §19): per camera, 3×3 stride-2 'valid' convolutions
 * with ReLU, flatten, a dense projection and LayerNorm to `featureDim` features. Its sizes, parameter
 * shapes and multiply-adds follow from these options alone.
 */
import { ConfigError } from '../errors';

export interface ImageEncoderOptions {
  /** Camera names, in the order their images are laid out; one encoder each. */
  cameras: string[];
  /** Side of the square images in pixels. */
  size: number;
  /** 3 (rgb) or 4 (rgb + depth byte). */
  channels: 3 | 4;
  /** Output channels of each 3×3 stride-2 convolution. */
  convChannels: number[];
  /** Features per camera after the projection and LayerNorm. */
  featureDim: number;
}

export const IMAGE_KERNEL = 3;
export const IMAGE_STRIDE = 2;

/** Output side of one 3×3 stride-2 'valid' convolution over `side` pixels: ⌊(side − 3)/2⌋ + 1. */
export function convOutputSize(side: number): number {
  return Math.floor((side - IMAGE_KERNEL) / IMAGE_STRIDE) + 1;
}

/** Spatial sides after each convolution, input first: 64 → 31 → 15 → 7 for three layers. */
export function convSides(options: Pick<ImageEncoderOptions, 'size' | 'convChannels'>): number[] {
  const sides = [options.size];
  for (let layer = 0; layer < options.convChannels.length; layer++) sides.push(convOutputSize(sides[layer]));
  return sides;
}

/** Values the last convolution leaves per image, flattened for the projection. */
export function flattenedSize(options: ImageEncoderOptions): number {
  const side = convSides(options).at(-1)!;
  return side * side * options.convChannels.at(-1)!;
}

/** Features the encoder gives per observation: one featureDim block per camera. */
export function imageFeatureSize(options: ImageEncoderOptions): number {
  return options.cameras.length * options.featureDim;
}

/** Bytes of one observation's images. */
export function imagePixelBytes(options: Pick<ImageEncoderOptions, 'cameras' | 'size' | 'channels'>): number {
  return options.cameras.length * options.size * options.size * options.channels;
}

/** The parameter prefix of camera `cameraIndex`'s encoder. */
export function cameraPrefix(cameraIndex: number): string {
  return `encoder.cameras.${cameraIndex}`;
}

/** Every encoder parameter with its shape: conv kernels [3, 3, in, out] (HWIO) and biases, the projection, the LayerNorm. */
export function imageEncoderShapes(options: ImageEncoderOptions): [string, number[]][] {
  const shapes: [string, number[]][] = [];
  options.cameras.forEach((_, cameraIndex) => {
    const prefix = cameraPrefix(cameraIndex);
    let inputChannels: number = options.channels;
    options.convChannels.forEach((outputChannels, layer) => {
      shapes.push([`${prefix}.conv.${layer}.kernel`, [IMAGE_KERNEL, IMAGE_KERNEL, inputChannels, outputChannels]]);
      shapes.push([`${prefix}.conv.${layer}.bias`, [outputChannels]]);
      inputChannels = outputChannels;
    });
    shapes.push([`${prefix}.project.kernel`, [flattenedSize(options), options.featureDim]]);
    shapes.push([`${prefix}.project.bias`, [options.featureDim]]);
    shapes.push([`${prefix}.norm.gamma`, [options.featureDim]]);
    shapes.push([`${prefix}.norm.beta`, [options.featureDim]]);
  });
  return shapes;
}

/** Multiply-adds of encoding one observation (every camera): each convolution's outputs × 9·in, then the projection. */
export function imageEncoderMacs(options: ImageEncoderOptions): number {
  const sides = convSides(options);
  let macs = 0;
  let inputChannels: number = options.channels;
  options.convChannels.forEach((outputChannels, layer) => {
    macs += sides[layer + 1] * sides[layer + 1] * outputChannels * IMAGE_KERNEL * IMAGE_KERNEL * inputChannels;
    inputChannels = outputChannels;
  });
  macs += flattenedSize(options) * options.featureDim;
  return macs * options.cameras.length;
}

function positiveInt(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new ConfigError(field, `${field} must be a positive integer, got ${String(value)}`);
}

/** Throws a ConfigError naming the first bad field, saying how to fix it. */
export function checkImageEncoderOptions(options: ImageEncoderOptions | undefined): ImageEncoderOptions {
  if (!options || typeof options !== 'object') throw new ConfigError('image', 'an image encoder needs its image options (cameras, size, channels, convChannels, featureDim)');
  const { cameras, convChannels } = options;
  if (!Array.isArray(cameras) || cameras.length === 0 || !cameras.every((name) => typeof name === 'string' && name !== '')) {
    throw new ConfigError('image.cameras', `image.cameras must name at least one camera, got ${JSON.stringify(cameras)}`);
  }
  positiveInt('image.size', options.size);
  if (options.channels !== 3 && options.channels !== 4) throw new ConfigError('image.channels', `image.channels must be 3 (rgb) or 4 (rgbd), got ${String(options.channels)}`);
  if (!Array.isArray(convChannels) || convChannels.length === 0) throw new ConfigError('policy.cnn_channels', `policy.cnn_channels must list at least one width, got ${JSON.stringify(convChannels)}`);
  convChannels.forEach((width, layer) => positiveInt(`policy.cnn_channels[${layer}]`, width));
  positiveInt('policy.image_features', options.featureDim);
  if (convSides(options).at(-1)! < 1) {
    throw new ConfigError('policy.cnn_channels', `policy.cnn_channels has ${convChannels.length} stride-2 layers, which shrink ${options.size}×${options.size} images to nothing; use fewer layers or a larger env.image_size`);
  }
  return { cameras: [...cameras], size: options.size, channels: options.channels, convChannels: [...convChannels], featureDim: options.featureDim };
}
