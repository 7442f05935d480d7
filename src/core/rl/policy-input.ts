/**
 * Host arrays → the policy's observation tensors: normalized stacked observations [B, nObs·frame]
 * as `state`, and for an image policy the raw uint8 camera images [B, cameras, S, S, C] beside them
 * (uploaded as float 0..255; the encoder scales them, the normalizer never sees them).
 */
import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import type { PolicyObs } from '../policy/obs-encoder';
import { imagePixelBytes } from '../policy/image-encoder-options';
import { obsFrameSize, type FlowPolicyOptions } from '../policy/options';

/** [rows, cameras, size, size, channels] of an image policy's images; a ShapeError when they are missing or of another size. */
export function imageTensor(options: FlowPolicyOptions, images: Uint8Array | undefined, rows: number): tf.Tensor {
  const image = options.image!;
  const bytes = imagePixelBytes(image);
  if (!images || images.length !== rows * bytes) {
    throw new ShapeError('images', `images hold ${images?.length ?? 0} bytes; an image policy needs ${rows} rows × ${bytes} bytes (${image.cameras.length} cameras of ${image.size}×${image.size}×${image.channels})`);
  }
  return tf.tensor(images, [rows, image.cameras.length, image.size, image.size, image.channels], 'float32');
}

/** The policy's input for B rows of normalized stacked observations (and images, for an image policy). */
export function policyObsTensors(options: FlowPolicyOptions, normalizedObs: Float32Array, images?: Uint8Array): PolicyObs {
  const obsSize = options.nObsSteps * obsFrameSize(options);
  const rows = normalizedObs.length / obsSize;
  const imageInput = options.obsEncoder === 'image' ? imageTensor(options, images, rows) : undefined;
  return { state: tf.tensor2d(normalizedObs, [rows, obsSize]), ...(imageInput ? { images: imageInput } : {}) };
}

/** Runs `call` on the uploaded observations, freeing them afterwards. */
export async function withPolicyObs<T>(options: FlowPolicyOptions, normalizedObs: Float32Array, images: Uint8Array | undefined, call: (obs: PolicyObs) => Promise<T>): Promise<T> {
  const obs = policyObsTensors(options, normalizedObs, images);
  try {
    return await call(obs);
  } finally {
    tf.dispose([obs.state!, ...(obs.images ? [obs.images] : [])]);
  }
}
