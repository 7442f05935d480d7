import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPolicyOnnx } from '../core/checkpoint/onnx/export-onnx';
import { bundleMetadata, exportConfig, randomBundle } from '../core/checkpoint/onnx/fixtures';
import { applyOverrides, defaultConfig } from '../core/config';
import { withObsClip, type PolicyBundle } from '../core/policy/policy-bundle';
import { policyOptionsFromConfig } from '../core/rl/policy-setup';
import { useNodeBackend } from './node-backend';
import { openOnnxPolicy } from './onnx-policy-file';

const { onnx } = onnxProto;
const dir = mkdtempSync(path.join(tmpdir(), 'flowtune-onnx-file-'));
/** reach: 29 state values per frame, 4-D actions; H = 6, 3 executed steps, K = 5. */
const config = exportConfig();
const base = applyOverrides(defaultConfig(), ['task=reach']);
let bundle: PolicyBundle;
let good: string;

beforeAll(async () => {
  await useNodeBackend('wasm');
  bundle = await randomBundle(policyOptionsFromConfig(config, 29, 4), 5);
  good = path.join(dir, 'reach.onnx');
  writeFileSync(good, await exportPolicyOnnx(bundle, await bundleMetadata(bundle, config)));
});
afterAll(() => {
  bundle.policy.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** The rejection of openOnnxPolicy as [name, message]. */
async function refusal(file: string, overrides: readonly string[]): Promise<[string, string]> {
  try {
    const { actor } = await openOnnxPolicy(file, base, overrides);
    await actor.dispose();
  } catch (error) {
    return [(error as Error).name, (error as Error).message];
  }
  throw new Error('openOnnxPolicy accepted the file');
}

describe('openOnnxPolicy', () => {
  it('blames the file, not an override, when its executed steps disagree and no override was given', async () => {
    const model = onnx.ModelProto.decode(await exportPolicyOnnx(bundle, await bundleMetadata(bundle, config)));
    // The graph and its count say 2 executed steps, the Flowtune metadata it carries says 3.
    model.metadataProps.find((entry) => entry.key === 'n_action_steps')!.value = '2';
    model.graph!.output![0].type!.tensorType!.shape!.dim![1].dimValue = 2;
    const disagreeing = path.join(dir, 'disagreeing.onnx');
    writeFileSync(disagreeing, onnx.ModelProto.encode(model).finish());
    const [name, message] = await refusal(disagreeing, []);
    expect(name).toBe('CheckpointError');
    expect(message).toBe("the ONNX model's metadata_props 'n_action_steps' is 2, but its Flowtune metadata's architecture has n_action_steps=3; export it again from the .flowtune");
    expect(message).not.toMatch(/override/);
  });

  it('names the override that the graph cannot honour when one was given', async () => {
    expect(await refusal(good, ['policy.n_action_steps=2'])).toEqual([
      'ConfigError', 'policy.n_action_steps=2 contradicts the ONNX graph, which has policy.n_action_steps=3 built in; drop the override or export again from the .flowtune',
    ]);
    const { actor, config: opened } = await openOnnxPolicy(good, base, []);
    await actor.dispose();
    expect(opened.policy.n_action_steps).toBe(3);
    // The graph bakes in the denoised-action clamp of the run too (none here).
    expect(opened.policy.denoised_clamp).toBe(0);
    expect(await refusal(good, ['policy.denoised_clamp=1'])).toEqual([
      'ConfigError', 'policy.denoised_clamp=1 contradicts the ONNX graph, which has policy.denoised_clamp=0 built in; drop the override or export again from the .flowtune',
    ]);
    // And the observation clamp: a graph exported with one runs with it, and an override of it is refused.
    expect(opened.policy.obs_clip).toBe(0);
    expect(await refusal(good, ['policy.obs_clip=5'])).toEqual([
      'ConfigError', 'policy.obs_clip=5 contradicts the ONNX graph, which has policy.obs_clip=0 built in; drop the override or export again from the .flowtune',
    ]);
    const clipped = path.join(dir, 'clipped.onnx');
    const clippedBundle = withObsClip(bundle, 5);
    writeFileSync(clipped, await exportPolicyOnnx(clippedBundle, await bundleMetadata(clippedBundle, config)));
    const reopened = await openOnnxPolicy(clipped, base, []);
    await reopened.actor.dispose();
    expect(reopened.config.policy.obs_clip).toBe(5);
    expect(await refusal(clipped, ['policy.obs_clip=0'])).toEqual([
      'ConfigError', 'policy.obs_clip=0 contradicts the ONNX graph, which has policy.obs_clip=5 built in; drop the override or export again from the .flowtune',
    ]);
  });
});
