import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxActor } from '../../../cli/onnx-actor';
import { useNodeBackend } from '../../../cli/node-backend';
import { imageBytes } from '../../envs/camera/image-layout';
import { observationSpec } from '../../envs/observation';
import { getTask } from '../../envs/task-registry';
import type { PolicyBundle } from '../../policy/policy-bundle';
import { createRng } from '../../random';
import { bundleActor } from '../../rl/evaluate';
import { policyOptionsFromConfig } from '../../rl/policy-setup';
import { exportPolicyOnnx } from './export-onnx';
import { onnxPolicySpec } from './export-spec';
import { bundleMetadata, DITX, envUnitObs, exportConfig, IMAGE, randomBundle, randomImages, UNET1D } from './fixtures';
import { maxAbsDifference } from './max-abs-difference';

/** pick-cube's proprioception beside the images (the same for rgb and rgbd). */
const PROPRIO = observationSpec(getTask('pick-cube'), 'rgb', 0).dim;

beforeAll(async () => {
  await useNodeBackend('wasm');
});

const bundles: PolicyBundle[] = [];
afterAll(() => bundles.forEach((bundle) => bundle.policy.dispose()));

async function imageBundle(overrides: string[], seed = 7) {
  const config = exportConfig([...IMAGE, ...overrides]);
  const bundle = await randomBundle(policyOptionsFromConfig(config, PROPRIO, 4), seed);
  bundles.push(bundle);
  return { config, bundle, metadata: await bundleMetadata(bundle, config) };
}

const CASES: { name: string; overrides: string[]; layout: { cameras: string[]; channels: 3 | 4 } }[] = [
  { name: 'MLP, rgb, one camera', overrides: ['env.obs_type=rgb', 'env.camera=front'], layout: { cameras: ['front'], channels: 3 } },
  { name: 'MLP, rgbd, two cameras', overrides: ['env.obs_type=rgbd', 'env.camera=front,wrist'], layout: { cameras: ['front', 'wrist'], channels: 4 } },
  { name: 'UNet1D, rgb, two cameras', overrides: [...UNET1D, 'env.obs_type=rgb', 'env.camera=front,wrist'], layout: { cameras: ['front', 'wrist'], channels: 3 } },
  { name: 'UNet1D, rgbd, one camera', overrides: [...UNET1D, 'env.obs_type=rgbd', 'env.camera=wrist'], layout: { cameras: ['wrist'], channels: 4 } },
  { name: 'DiT-X, rgb, one camera', overrides: [...DITX, 'env.obs_type=rgb', 'env.camera=front'], layout: { cameras: ['front'], channels: 3 } },
];

describe('an image policy exported to ONNX takes the uint8 camera images and gives the tfjs eval actions (DESIGN.md §19)', () => {
  for (const testCase of CASES) {
    it(`${testCase.name}: max |Δ| ≤ 1e-4 at batch 1 and 5, and the images move the actions`, async () => {
      const { config, bundle, metadata } = await imageBundle(testCase.overrides);
      const spec = onnxPolicySpec(bundle, metadata);
      expect(spec.obsType).toBe('image');
      expect(spec.image).toEqual({ cameras: testCase.layout.cameras, size: 16, channels: testCase.layout.channels });
      const onnxActor = await OnnxActor.open(await exportPolicyOnnx(bundle, metadata), spec);
      const tfjsActor = bundleActor(bundle, config);
      try {
        const rng = createRng(31);
        for (const batch of [1, 5]) {
          const obs = envUnitObs(bundle.obsNormalizer, batch, rng);
          const images = randomImages(batch, imageBytes(spec.image!), rng);
          const expected = await tfjsActor.act(obs, batch, createRng(batch), images);
          const actual = await onnxActor.act(obs, batch, createRng(batch), images);
          expect(actual.length).toBe(batch * spec.nActionSteps * spec.actionDim);
          expect(maxAbsDifference(actual, expected)).toBeLessThan(1e-4);
          // Other pixels give other actions, so the match above runs through the encoder, not around it.
          const inverted = await onnxActor.act(obs, batch, createRng(batch), images.map((value) => 255 - value));
          expect(maxAbsDifference(inverted, expected)).toBeGreaterThan(1e-3);
        }
        await expect(onnxActor.act(envUnitObs(bundle.obsNormalizer, 1, rng), 1, createRng(1)))
          .rejects.toThrow(/^the ONNX image policy needs B·cameras·size·size·channels = 1·\d·16·16·[34] image bytes, got 0$/);
      } finally {
        await onnxActor.dispose();
      }
    });
  }

  it('policy.freeze_encoder leaves the graph as it is: it only decides what a rollout stores', async () => {
    const frozen = await imageBundle(['env.obs_type=rgb', 'env.camera=front', 'policy.freeze_encoder=true'], 9);
    const graphOf = async (freeze: string) => {
      const model = onnxProto.onnx.ModelProto.decode(await exportPolicyOnnx(frozen.bundle, await bundleMetadata(frozen.bundle, exportConfig([...IMAGE, 'env.obs_type=rgb', 'env.camera=front', `policy.freeze_encoder=${freeze}`]))));
      return onnxProto.onnx.GraphProto.encode(model.graph!).finish();
    };
    const [withFreeze, without] = [await graphOf('true'), await graphOf('false')];
    expect(withFreeze.byteLength).toBeGreaterThan(0);
    expect(Buffer.from(withFreeze).equals(Buffer.from(without))).toBe(true);
  });
});
