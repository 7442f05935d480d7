import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleContents } from '../core/checkpoint/policy-checkpoint';
import { encodeFlowtune } from '../core/checkpoint/flowtune-file';
import { createRng } from '../core/random';
import { freshBundle, tinyConfig } from '../core/rl/fixtures/test-support';
import { evaluateBundle, evaluateCheckpoint } from './evaluate-checkpoint';
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
