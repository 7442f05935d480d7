/** Policies for the ONNX export tests: random weights and uneven normalizers, so no layer hides behind a zero. */
import { applyOverrides, defaultConfig, type RunConfig } from '../../config';
import { FlowPolicy } from '../../policy/flow-policy';
import { MinMaxNormalizer, poolPointRanges, type MinMaxStats } from '../../policy/normalizer';
import { obsFrameSize, type FlowPolicyOptions } from '../../policy/options';
import type { PolicyBundle } from '../../policy/policy-bundle';
import { createRng, type Rng } from '../../random';
import type { FlowtuneMetadata } from '../metadata';
import { bundleContents } from '../policy-checkpoint';

/** A small run config on `task` with H = 6, 3 executed steps and K = 5, plus overrides. */
export function exportConfig(overrides: readonly string[] = []): RunConfig {
  return applyOverrides(defaultConfig(), [
    'task=reach', 'policy.hidden=32,32,32', 'policy.encoder_hidden=24,24', 'policy.value_hidden=8', 'policy.noise_head_hidden=8',
    'policy.horizon=6', 'policy.n_action_steps=3', 'policy.denoise_steps=5', ...overrides,
  ]);
}

/** The DiT-X settings of src/core/run/ditx-pointcloud-run.test.ts. */
export const DITX = ['policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=2', 'policy.ditx_heads=2', 'policy.encoder_hidden=16,16'];
/** A small UNet1D: two levels (H 6 halves to 3), kernel 3, 4 groups. */
export const UNET1D = ['policy.velocity_net=unet1d', 'policy.unet_dims=8,16', 'policy.unet_kernel=3', 'policy.unet_groups=4'];
export const POINTCLOUD = ['task=pick-cube', 'env.obs_type=pointcloud', 'env.num_points=32'];
/** A tiny camera policy on pick-cube: 16×16 images, two stride-2 layers (16 → 7 → 3), 6 features per camera; one observation. */
export const IMAGE = ['task=pick-cube', 'env.image_size=16', 'policy.cnn_channels=4,8', 'policy.image_features=6', 'policy.n_obs_steps=1'];

/** Uniform random uint8 pixels for `rows` observations of `bytesPerRow` bytes each. */
export function randomImages(rows: number, bytesPerRow: number, rng: Rng): Uint8Array {
  return Uint8Array.from({ length: rows * bytesPerRow }, () => rng.int(256));
}

/** Per-feature ranges of random centre and width; feature 1 is constant (min = max), to hit that branch. */
function unevenStats(dim: number, rng: Rng): MinMaxStats {
  const min = Array.from({ length: dim }, () => -3 + 2 * rng.uniform());
  const max = min.map((lo) => lo + 0.2 + 4 * rng.uniform());
  if (dim > 1) max[1] = min[1];
  return { min, max };
}

/**
 * A policy of this architecture (policyOptionsFromConfig of a test's config) with every weight moved
 * off its initial value (the DiT-X gates and modulations start at zero, which would hide those
 * layers), and uneven normalizers.
 */
export async function randomBundle(options: FlowPolicyOptions, seed: number): Promise<PolicyBundle> {
  const frameSize = obsFrameSize(options);
  const policy = new FlowPolicy(options, seed);
  const rng = createRng(seed + 100);
  const weights = await policy.getWeights();
  for (const entry of weights.values()) entry.data = entry.data.map((value) => value + 0.15 * rng.normal());
  policy.setWeights(weights);
  const obsStats = unevenStats(frameSize, rng);
  return {
    policy,
    obsNormalizer: new MinMaxNormalizer(options.obsEncoder === 'pointcloud' ? poolPointRanges(obsStats, options.numPoints) : obsStats, 'obs_normalizer'),
    actionNormalizer: new MinMaxNormalizer(unevenStats(options.actionDim, rng), 'action_normalizer'),
  };
}

/** The metadata a checkpoint of this bundle would carry. */
export async function bundleMetadata(bundle: PolicyBundle, config: RunConfig): Promise<FlowtuneMetadata> {
  return (await bundleContents({ bundle, task: config.task, stage: 'bc', config })).metadata;
}

/** Raw observations [rows, frame] in env units, spread a little past each feature's range. */
export function envUnitObs(normalizer: MinMaxNormalizer, rows: number, rng: Rng): Float32Array {
  const { min, max } = normalizer.stats;
  const out = new Float32Array(rows * normalizer.dim);
  for (let offset = 0; offset < out.length; offset++) {
    const featureIndex = offset % normalizer.dim;
    const width = max[featureIndex] - min[featureIndex];
    out[offset] = min[featureIndex] + (1.2 * rng.uniform() - 0.1) * Math.max(width, 0.1);
  }
  return out;
}
