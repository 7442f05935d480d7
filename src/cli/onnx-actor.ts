/**
 * An exported ONNX policy run by onnxruntime-node, as an EvalActor: the same stacked
 * observations (and an image policy's uint8 camera images) in, the same x_0 draws, the same
 * executed actions out as the tfjs policy.
 */
import * as ort from 'onnxruntime-node';
import type { OnnxPolicySpec } from '../core/checkpoint/onnx/export-spec';
import { ONNX_POLICY_IO } from '../core/checkpoint/onnx/policy-graph';
import { CheckpointError, ShapeError } from '../core/errors';
import type { Rng } from '../core/random';
import type { EvalActor } from '../core/rl/evaluate';
import { imageBytes } from '../core/envs/camera/image-layout';

export class OnnxActor implements EvalActor {
  private constructor(private readonly session: ort.InferenceSession, readonly spec: OnnxPolicySpec) {}

  /** A CPU session over the model bytes; throws CheckpointError when onnxruntime refuses the graph. */
  static async open(modelBytes: Uint8Array, spec: OnnxPolicySpec): Promise<OnnxActor> {
    try {
      return new OnnxActor(await ort.InferenceSession.create(modelBytes), spec);
    } catch (error) {
      throw new CheckpointError(`onnxruntime cannot load the ONNX model: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  /** The `images` feed of an image policy: uint8 [B, cameras, size, size, channels]; a ShapeError when the bytes do not fit. */
  private imagesFeed(images: Uint8Array | undefined, batch: number): Record<string, ort.Tensor> {
    const image = this.spec.image;
    if (!image) return {};
    const perRow = imageBytes(image);
    if (!images || images.length !== batch * perRow) {
      throw new ShapeError('images', `the ONNX image policy needs B·cameras·size·size·channels = ${batch}·${image.cameras.length}·${image.size}·${image.size}·${image.channels} image bytes, got ${images?.length ?? 0}`);
    }
    return { [ONNX_POLICY_IO.images]: new ort.Tensor('uint8', images, [batch, image.cameras.length, image.size, image.size, image.channels]) };
  }

  /**
   * stackedObs [B, nObs·frame] (env units) and, for an image policy, its images [B × camera bytes] → actions
   * [B, n_action_steps, A]; x_0 is B·H·A normals from `rng`.
   */
  async act(stackedObs: Float32Array, batch: number, rng: Rng, images?: Uint8Array): Promise<Float32Array> {
    const { nObsSteps, obsFrameSize, horizon, actionDim } = this.spec;
    if (stackedObs.length !== batch * nObsSteps * obsFrameSize) {
      throw new ShapeError('obs', `obs must hold B·n_obs_steps·obs_dim = ${batch}·${nObsSteps}·${obsFrameSize} values, got ${stackedObs.length}`);
    }
    const imageFeed = this.imagesFeed(images, batch);
    // The draw sampleActions makes first (flow/sampler.ts); eval chains draw nothing else.
    const x0 = rng.fillNormal(new Float32Array(batch * horizon * actionDim));
    const outputs = await this.session.run({
      [ONNX_POLICY_IO.obs]: new ort.Tensor('float32', stackedObs, [batch, nObsSteps, obsFrameSize]),
      [ONNX_POLICY_IO.x0]: new ort.Tensor('float32', x0, [batch, horizon, actionDim]),
      ...imageFeed,
    });
    const actions = outputs[ONNX_POLICY_IO.actions];
    if (!actions) throw new CheckpointError(`the ONNX model gave no output '${ONNX_POLICY_IO.actions}' (its outputs: ${Object.keys(outputs).join(', ') || 'none'})`);
    return Float32Array.from(actions.data as Float32Array);
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}
