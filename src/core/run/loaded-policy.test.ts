import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import { parseCheckpointFile } from '../checkpoint/checkpoint-file';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { applyOverrides, presetConfig } from '../config';
import { createRng } from '../random';
import { gaussianContents } from '../gaussian/gaussian-checkpoint';
import { gaussianBundle } from '../gaussian/gaussian-family';
import { loadPolicy } from './families';
import { flowtuneFile, PICK_CUBE_STATE, smallConfig } from './fixtures/test-checkpoints';
import { openCheckpoint } from './open-checkpoint';

/** A fresh Gaussian policy on hopper as a checkpoint's bytes. */
async function gaussianFile(): Promise<Uint8Array> {
  const config = applyOverrides(presetConfig('gaussian-ppo'), ['task=hopper', 'policy.gaussian_hidden=8,8']);
  const bundle = gaussianBundle(config, 11, 3);
  try {
    return encodeFlowtune(await gaussianContents({ bundle, config, stage: 'ppo' }));
  } finally {
    bundle.policy.dispose();
  }
}

describe('loadPolicy (a checkpoint\'s policy of any family, outside a run)', () => {
  beforeAll(async () => {
    await useNodeBackend('cpu');
  });

  it('flow: the probe is one ODE chunk [H × A], the same for two copies of the weights, another for another seed', async () => {
    const files = await flowtuneFile('pick.flowtune', smallConfig(), PICK_CUBE_STATE);
    const { checkpoint, config } = openCheckpoint(files, smallConfig());
    const [first, second] = [loadPolicy(checkpoint, config), loadPolicy(checkpoint, config)];
    try {
      expect(first.kind).toBe('flow');
      expect(first.io).toEqual({ nObsSteps: config.policy.n_obs_steps, obsFrameSize: PICK_CUBE_STATE, actionDim: 4, x0Shape: [config.policy.horizon, 4] });
      const probe = await first.probe(config, 7);
      expect(probe).toHaveLength(config.policy.horizon * 4);
      expect(await second.probe(config, 7)).toEqual(probe);
      expect(await first.probe(config, 8)).not.toEqual(probe);
      expect(first.samplingActor).toBeUndefined();
    } finally {
      first.dispose();
      second.dispose();
    }
  });

  it('Gaussian: the probe is the mean action [A]; the export describes obs → actions without x0; it samples demos at a scaled std', async () => {
    const bytes = await gaussianFile();
    const base = applyOverrides(presetConfig('gaussian-ppo'), ['task=hopper']);
    const { checkpoint, config } = openCheckpoint(parseCheckpointFile({ kind: 'flowtune', name: 'g.flowtune', bytes }), base);
    expect(config.policy.gaussian_hidden).toEqual([8, 8]);
    const policy = loadPolicy(checkpoint, config);
    try {
      expect(policy.kind).toBe('gaussian');
      expect(policy.io).toEqual({ nObsSteps: 1, obsFrameSize: 11, actionDim: 3 });
      const probe = await policy.probe(config, 7);
      expect(probe).toHaveLength(3);
      expect(await policy.probe(config, 7)).toEqual(probe);
      const { description } = await policy.exportOnnx(checkpoint.metadata);
      expect(description).toBe('obs [batch, 1, 11] → actions [batch, 1, 3] for hopper, the Gaussian policy\'s mean action');
      expect(policy.samplingActor).toBeDefined();
      // std_scale s draws μ + s·σ·ε: with one seed's ε, scale 0 is the mean μ and
      // (a_0.5 − μ) = 0.5·(a_1 − μ) elementwise.
      const obs = Float32Array.from({ length: 11 }, (_, index) => 0.1 * index - 0.4);
      const mean = await policy.samplingActor!(createRng(3), 0)(obs);
      const full = await policy.samplingActor!(createRng(3))(obs);
      const half = await policy.samplingActor!(createRng(3), 0.5)(obs);
      expect(Array.from(full).some((value, index) => Math.abs(value - mean[index]) > 1e-3)).toBe(true);
      for (let index = 0; index < 3; index++) expect(half[index] - mean[index]).toBeCloseTo(0.5 * (full[index] - mean[index]), 5);
    } finally {
      policy.dispose();
    }
  });
});
