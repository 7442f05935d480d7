/**
 * An exported ONNX policy run by onnxruntime-node, as an EvalActor: the same stacked
 * observations in, the same x_0 draws, the same executed actions out as the tfjs policy.
 */
import * as ort from 'onnxruntime-node';
import type { OnnxPolicySpec } from '../core/checkpoint/onnx/export-spec';
import { ONNX_POLICY_IO } from '../core/checkpoint/onnx/policy-graph';
import { CheckpointError, ShapeError } from '../core/errors';
import type { Rng } from '../core/random';
import type { EvalActor } from '../core/rl/evaluate';

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

  /** stackedObs [B, nObs·frame] (env units) → actions [B, n_action_steps, A]; x_0 is B·H·A normals from `rng`. */
  async act(stackedObs: Float32Array, batch: number, rng: Rng): Promise<Float32Array> {
    const { nObsSteps, obsFrameSize, horizon, actionDim } = this.spec;
    if (stackedObs.length !== batch * nObsSteps * obsFrameSize) {
      throw new ShapeError('obs', `obs must hold B·n_obs_steps·obs_dim = ${batch}·${nObsSteps}·${obsFrameSize} values, got ${stackedObs.length}`);
    }
    // The draw sampleActions makes first (flow/sampler.ts); eval chains draw nothing else.
    const x0 = rng.fillNormal(new Float32Array(batch * horizon * actionDim));
    const outputs = await this.session.run({
      [ONNX_POLICY_IO.obs]: new ort.Tensor('float32', stackedObs, [batch, nObsSteps, obsFrameSize]),
      [ONNX_POLICY_IO.x0]: new ort.Tensor('float32', x0, [batch, horizon, actionDim]),
    });
    const actions = outputs[ONNX_POLICY_IO.actions];
    if (!actions) throw new CheckpointError(`the ONNX model gave no output '${ONNX_POLICY_IO.actions}' (its outputs: ${Object.keys(outputs).join(', ') || 'none'})`);
    return Float32Array.from(actions.data as Float32Array);
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}
