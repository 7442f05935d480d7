import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../../cli/node-backend';
import { CheckpointError } from '../../errors';
import type { JsonObject } from '../checkpoint-types';
import type { FlowPolicyOptions } from '../../policy/options';
import { withObsClip, type PolicyBundle } from '../../policy/policy-bundle';
import { policyOptionsFromConfig } from '../../rl/policy-setup';
import { exportPolicyOnnx } from './export-onnx';
import { onnxPolicySpec } from './export-spec';
import { bundleMetadata, exportConfig, randomBundle } from './fixtures';

/** reach state frames. */
const FRAME = 29;
const config = exportConfig();
let bundle: PolicyBundle;

beforeAll(async () => {
  await useNodeBackend('wasm');
  bundle = await randomBundle(policyOptionsFromConfig(config, FRAME, 4), 5);
});
afterAll(() => bundle.policy.dispose());

/** The bundle with its policy's options replaced, as a policy of an architecture this build cannot export would have. */
function withOptions(patch: Record<string, unknown>): PolicyBundle {
  const options = { ...bundle.policy.options, ...patch } as unknown as FlowPolicyOptions;
  return { ...bundle, policy: Object.assign(Object.create(Object.getPrototypeOf(bundle.policy)), bundle.policy, { options }) };
}

describe('onnxPolicySpec', () => {
  it('takes K, the executed steps, the denoised-action clamp and the control mode from the metadata', async () => {
    const spec = onnxPolicySpec(bundle, await bundleMetadata(bundle, config));
    expect(spec).toEqual({
      task: 'reach', controlMode: 'ee_delta_pos', obsType: 'state', nObsSteps: 2, obsFrameSize: FRAME, numPoints: 0, proprioDim: FRAME,
      horizon: 6, actionDim: 4, nActionSteps: 3, denoiseSteps: 5, denoisedClamp: 0, obsClip: 0,
    });
    const clamped = onnxPolicySpec(bundle, await bundleMetadata(bundle, exportConfig(['policy.denoised_clamp=0.5'])));
    expect(clamped.denoisedClamp).toBe(0.5);
  });

  it('takes the observation clamp from the policy\'s normalizer, refusing metadata that says another', async () => {
    const clipped = withObsClip(bundle, 2);
    const metadata = await bundleMetadata(clipped, config);
    expect(onnxPolicySpec(clipped, metadata).obsClip).toBe(2);
    expect(() => onnxPolicySpec(bundle, metadata)).toThrow(/^the policy clamps its normalized observations to no bound, but the metadata it is exported with says policy\.obs_clip=2$/);
    expect(() => onnxPolicySpec(withObsClip(bundle, 3), metadata)).toThrow(/^the policy clamps its normalized observations to ±3, but the metadata it is exported with says policy\.obs_clip=2$/);
  });

  it('an architecture the graph cannot reproduce is a CheckpointError of one sentence, before any graph is built', async () => {
    const metadata = await bundleMetadata(bundle, config);
    await expect(exportPolicyOnnx(withOptions({ velocityNet: 'unet' }), metadata)).rejects.toThrow(CheckpointError);
    await expect(exportPolicyOnnx(withOptions({ velocityNet: 'unet' }), metadata)).rejects.toThrow(/^ONNX export supports the velocity nets mlp, ditx, reflow_mlp, unet1d, not 'unet'$/);
    expect(() => onnxPolicySpec(withOptions({ obsEncoder: 'voxels' }), metadata)).toThrow(/^ONNX export supports the observation encoders state, pointcloud, image, not 'voxels'$/);
    expect(() => onnxPolicySpec(withOptions({ actionDim: 3 }), metadata))
      .toThrow(/^the normalizers cover 29 observation and 4 action values, but the policy takes frames of 29 and gives 3$/);
  });

  it('metadata whose K or executed steps do not fit the policy is refused, naming the field', async () => {
    const metadata = await bundleMetadata(bundle, config);
    const architecture = (patch: JsonObject) => ({ ...metadata, architecture: { ...metadata.architecture, ...patch } });
    expect(() => onnxPolicySpec(bundle, architecture({ n_action_steps: 7 }))).toThrow(/^n_action_steps \(7\) must be at most the horizon \(6\) for ONNX export$/);
    expect(() => onnxPolicySpec(bundle, architecture({ denoise_steps: 0 }))).toThrow(/^checkpoint architecture field 'denoise_steps' must be a positive integer for ONNX export, got 0$/);
    const { denoise_steps: _k, ...withoutK } = metadata.architecture;
    expect(() => onnxPolicySpec(bundle, { ...metadata, architecture: withoutK })).toThrow(/'denoise_steps' must be a positive integer for ONNX export, got undefined/);
    const joint = { ...metadata, config: { env: { control_mode: 'joint_delta_pos' } } };
    // 4-D actions cannot be joint deltas (8-D); the action size decides, as it does for a run.
    expect(onnxPolicySpec(bundle, joint).controlMode).toBe('ee_delta_pos');
  });
});
