import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleContents } from '../core/checkpoint/policy-checkpoint';
import { encodeFlowtune } from '../core/checkpoint/flowtune-file';
import { createRng } from '../core/random';
import { freshBundle, tinyConfig } from '../core/rl/fixtures/test-support';
import { evaluateBundle, evaluateCheckpoint } from './evaluate-checkpoint';
import { exportCheckpointOnnx } from './export-checkpoint';
import { applyOverrides, defaultConfig } from '../core/config';
import { exportConfig, IMAGE, randomBundle } from '../core/checkpoint/onnx/fixtures';
import { policyOptionsFromConfig } from '../core/rl/policy-setup';
import { prepareRuntime } from './run-setup';

const REACH_OBS_DIM = 29;
const REACH_ACTION_DIM = 4;
const dir = mkdtempSync(join(tmpdir(), 'flowtune-eval-'));

beforeAll(async () => {
  await prepareRuntime();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evaluateBundle', () => {
  it('gives the live policy exactly the figures `npm run eval` gives its saved file (what pretraining stores)', async () => {
    const config = tinyConfig();
    const bundle = freshBundle(config, REACH_OBS_DIM, REACH_ACTION_DIM, 11);
    try {
      // Random weights everywhere, so a lossy save or a different x_0 stream would change the episodes.
      const rng = createRng(5);
      const weights = await bundle.policy.getWeights();
      for (const entry of weights.values()) entry.data = entry.data.map(() => 0.2 * rng.normal());
      bundle.policy.setWeights(weights);
      const path = join(dir, 'reach-random.flowtune');
      writeFileSync(path, encodeFlowtune(await bundleContents({ bundle, task: 'reach', stage: 'bc', config, step: 0, evalSummary: {} })));

      const options = { episodes: 5, seed: 424_242, batch: 2 };
      const live = await evaluateBundle(bundle, config, options);
      const saved = await evaluateCheckpoint(path, config, [], options);
      expect(saved).toEqual(live);
      expect(live.episodes).toBe(5);
      expect(Number.isFinite(live.mean_return)).toBe(true);
      expect(live.mean_length).toBeGreaterThan(0);

      // The x_0 stream follows the seed: another first seed gives other episodes.
      const elsewhere = await evaluateBundle(bundle, config, { ...options, seed: 424_300 });
      expect(elsewhere.mean_return).not.toBe(live.mean_return);
    } finally {
      bundle.policy.dispose();
    }
  }, 120_000);
});

describe('evaluateCheckpoint on an exported .onnx policy (onnxruntime-node)', () => {
  it('gives the shipped reach checkpoint\'s success rate and episode lengths exactly, and its mean return to float32 rounding, on 20 seeds', async () => {
    const source = 'public/checkpoints/reach-bc.flowtune';
    const exported = join(dir, 'reach-bc.onnx');
    await exportCheckpointOnnx(source, exported);
    const config = applyOverrides(defaultConfig(), ['task=reach']);
    const options = { episodes: 20, seed: 1_000_000, batch: 10 };
    const tfjs = await evaluateCheckpoint(source, config, [], options);
    const onnx = await evaluateCheckpoint(exported, config, [], options);
    expect(onnx.success_rate).toBe(tfjs.success_rate);
    expect(onnx.mean_length).toBe(tfjs.mean_length);
    // Same seeds and x_0 draws; the two runtimes sum their matmuls in other orders, so rewards differ in the last bits.
    expect(Math.abs(onnx.mean_return - tfjs.mean_return)).toBeLessThan(1e-4);
    expect(tfjs.success_rate).toBeGreaterThan(0);
    expect(tfjs.success_rate).toBeLessThan(1);
  }, 240_000);
});

describe('evaluateCheckpoint on an exported camera policy (.onnx fed the env\'s images)', () => {
  it('gives the tfjs figures of the same random rgbd policy on two cameras: success and lengths exactly, returns to float32 rounding', async () => {
    const config = exportConfig([...IMAGE, 'env.obs_type=rgbd', 'env.camera=front,wrist']);
    // pick-cube's 15 proprioception values beside the images, 4-D actions.
    const bundle = await randomBundle(policyOptionsFromConfig(config, 15, 4), 12);
    const source = join(dir, 'pick-cube-rgbd.flowtune');
    try {
      writeFileSync(source, encodeFlowtune(await bundleContents({ bundle, task: 'pick-cube', stage: 'bc', config, step: 0, evalSummary: {} })));
    } finally {
      bundle.policy.dispose();
    }
    const exported = join(dir, 'pick-cube-rgbd.onnx');
    expect(await exportCheckpointOnnx(source, exported)).toMatch(/: obs \[batch, 1, 15\], images uint8 \[batch, 2, 16, 16, 4\] and x0 \[batch, 6, 4\] → actions/);
    const base = applyOverrides(defaultConfig(), ['task=pick-cube']);
    const options = { episodes: 4, seed: 77, batch: 2 };
    const shorter = ['env.max_episode_steps=30'];
    const tfjs = await evaluateCheckpoint(source, base, shorter, options);
    const onnx = await evaluateCheckpoint(exported, base, shorter, options);
    expect(tfjs.mean_length).toBe(30);
    expect(onnx.success_rate).toBe(tfjs.success_rate);
    expect(onnx.mean_length).toBe(tfjs.mean_length);
    expect(Math.abs(onnx.mean_return - tfjs.mean_return)).toBeLessThan(1e-4);
  }, 240_000);
});
