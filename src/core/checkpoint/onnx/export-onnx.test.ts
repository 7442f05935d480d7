import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxActor } from '../../../cli/onnx-actor';
import { useNodeBackend } from '../../../cli/node-backend';
import { observationSpec } from '../../envs/observation';
import { getTask } from '../../envs/task-registry';
import type { FlowPolicyOptions } from '../../policy/options';
import { withObsClip, type PolicyBundle } from '../../policy/policy-bundle';
import { createRng } from '../../random';
import { bundleActor } from '../../rl/evaluate';
import { policyOptionsFromConfig } from '../../rl/policy-setup';
import { exportPolicyOnnx } from './export-onnx';
import { onnxPolicySpec } from './export-spec';
import { bundleMetadata, DITX, envUnitObs, exportConfig, POINTCLOUD, randomBundle, UNET1D } from './fixtures';
import { maxAbsDifference } from './max-abs-difference';

const REACH_STATE = observationSpec(getTask('reach'), 'state', 0).dim;
const PICK_CUBE_CLOUD = observationSpec(getTask('pick-cube'), 'pointcloud', 32).dim;

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const bundles: PolicyBundle[] = [];
afterAll(() => bundles.forEach((bundle) => bundle.policy.dispose()));

interface Case {
  name: string;
  overrides: string[];
  frameSize: number;
  patch?: Partial<FlowPolicyOptions>;
}

const CASES: Case[] = [
  { name: 'MLP on state, one observation frame', overrides: ['policy.n_obs_steps=1'], frameSize: REACH_STATE },
  { name: 'MLP on state, n_obs_steps 2', overrides: ['policy.n_obs_steps=2'], frameSize: REACH_STATE },
  { name: 'DiT-X on point clouds, n_obs_steps 2', overrides: [...POINTCLOUD, ...DITX, 'policy.n_obs_steps=2'], frameSize: PICK_CUBE_CLOUD },
  { name: 'DiT-X on state, one token per frame', overrides: [...DITX, 'policy.n_obs_steps=2'], frameSize: REACH_STATE },
  { name: 'MLP on point clouds', overrides: [...POINTCLOUD, 'policy.encoder_hidden=16,16', 'policy.n_obs_steps=2'], frameSize: PICK_CUBE_CLOUD },
  // No step-size input, no encoder MLP, and a block that changes width (no residual there).
  { name: 'MLP without the shortcut input or an encoder', overrides: ['policy.hidden=16,24,24', 'policy.n_obs_steps=3'], frameSize: REACH_STATE, patch: { shortcut: false, encoderHidden: [] } },
  // x_0 ~ N(0, I), so a clamp at 0.3 bites on most elements of the early steps.
  { name: 'MLP with the denoised-action clamp', overrides: ['policy.denoised_clamp=0.3'], frameSize: REACH_STATE },
  { name: 'DiT-X with the denoised-action clamp', overrides: [...DITX, 'policy.denoised_clamp=0.3'], frameSize: REACH_STATE },
  { name: 'UNet1D on state, n_obs_steps 2', overrides: [...UNET1D, 'policy.n_obs_steps=2'], frameSize: REACH_STATE },
  { name: 'UNet1D on point clouds, three levels over H 8, kernel 5', overrides: [...POINTCLOUD, ...UNET1D, 'policy.unet_dims=8,16,16', 'policy.unet_kernel=5', 'policy.horizon=8', 'policy.encoder_hidden=16,16', 'policy.n_obs_steps=2'], frameSize: PICK_CUBE_CLOUD },
  // envUnitObs spans about [-1.2, 1.2] once normalized, so a clamp at 0.5 bites on most observation values.
  { name: 'MLP with the observation clamp', overrides: ['policy.obs_clip=0.5', 'policy.n_obs_steps=2'], frameSize: REACH_STATE },
  { name: 'UNet1D without the step-size input, one level', overrides: [...UNET1D, 'policy.unet_dims=12', 'policy.horizon=5'], frameSize: REACH_STATE, patch: { shortcut: false } },
];

describe('the ONNX policy run by onnxruntime-node gives the tfjs eval actions (DESIGN.md §6 "ONNX")', () => {
  for (const testCase of CASES) {
    it(`${testCase.name}: max |Δ| ≤ 1e-5 at batch 1 and 7, with x_0 from the same stream`, async () => {
      const config = exportConfig(testCase.overrides);
      const bundle = withObsClip(await randomBundle({ ...policyOptionsFromConfig(config, testCase.frameSize, 4), ...testCase.patch }, 7), config.policy.obs_clip);
      bundles.push(bundle);
      const metadata = await bundleMetadata(bundle, config);
      const spec = onnxPolicySpec(bundle, metadata);
      const onnxActor = await OnnxActor.open(await exportPolicyOnnx(bundle, metadata), spec);
      const tfjsActor = bundleActor(bundle, config);
      try {
        const obsRng = createRng(21);
        for (const batch of [1, 7]) {
          const obs = envUnitObs(bundle.obsNormalizer, batch * spec.nObsSteps, obsRng);
          const expected = await tfjsActor.act(obs, batch, createRng(batch));
          const actual = await onnxActor.act(obs, batch, createRng(batch));
          expect(actual.length).toBe(batch * spec.nActionSteps * spec.actionDim);
          expect(maxAbsDifference(actual, expected)).toBeLessThan(1e-5);
          // A different x_0 stream moves the actions, so the match above is not a constant policy.
          const elsewhere = await onnxActor.act(obs, batch, createRng(batch + 50));
          expect(maxAbsDifference(elsewhere, expected)).toBeGreaterThan(1e-3);
          if (config.policy.denoised_clamp > 0) {
            // The clamp changes the actions, so the match above is the clamped chain's.
            const unclamped = await bundleActor(bundle, { ...config, policy: { ...config.policy, denoised_clamp: 0 } }).act(obs, batch, createRng(batch));
            expect(maxAbsDifference(unclamped, expected)).toBeGreaterThan(1e-3);
          }
          if (config.policy.obs_clip > 0) {
            // So does the observation clamp: the same policy without it acts otherwise on these observations.
            const unclamped = await bundleActor(withObsClip(bundle, 0), config).act(obs, batch, createRng(batch));
            expect(maxAbsDifference(unclamped, expected)).toBeGreaterThan(1e-3);
          }
        }
      } finally {
        await onnxActor.dispose();
      }
    });
  }
});
