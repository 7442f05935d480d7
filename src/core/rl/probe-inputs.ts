/**
 * The seeded observation a loaded chain policy's probe reads (flow and diffusion alike): normalized stacked values in
 * [−1, 1] and, for an image policy, seeded pixels, drawn in that order from one stream.
 */
import { imagePixelBytes } from '../policy/image-encoder-options';
import type { FlowPolicyOptions } from '../policy/options';
import type { Rng } from '../random';

export function probeInputs(options: FlowPolicyOptions, rng: Rng): { normalizedObs: Float32Array; images?: Uint8Array } {
  const { nObsSteps, obsDim, image } = options;
  const normalizedObs = Float32Array.from({ length: nObsSteps * obsDim }, () => 2 * rng.uniform() - 1);
  const images = image ? Uint8Array.from({ length: imagePixelBytes(image) }, () => rng.int(256)) : undefined;
  return { normalizedObs, ...(images ? { images } : {}) };
}
