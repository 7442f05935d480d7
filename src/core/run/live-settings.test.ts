/**
 * The live fields of a run (DESIGN.md §2, §1 journey 3, §17): the noise section and DPPO's sampling std floor, which a
 * diffusion run reads when its next rollout starts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { CONFIG_KEYS } from '../config';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { ConfigError } from '../errors';
import { tinyConfig } from '../rl/fixtures/test-support';
import { isLiveKey, liveSettingsOf, withLiveSettings } from './live-settings';
import { openRun } from './open-run';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});

describe('live settings', () => {
  it('are the noise section and dppo.min_sampling_std, and nothing else', () => {
    const live = CONFIG_KEYS.filter(isLiveKey);
    expect(live).toContain('noise.level');
    expect(live).toContain('dppo.min_sampling_std');
    expect(live.filter((key) => !key.startsWith('noise.'))).toEqual(['dppo.min_sampling_std']);
    expect(isLiveKey('dppo.min_logprob_std')).toBe(false);
    expect(isLiveKey('policy.denoise_steps')).toBe(false);
  });

  it('withLiveSettings moves only the live fields and keeps the untouched sections as they are', () => {
    const config = tinyConfig(['noise.level=0.5']);
    const floored = withLiveSettings(config, { dppo: { min_sampling_std: 0.3 } });
    expect(floored.dppo).toEqual({ ...config.dppo, min_sampling_std: 0.3 });
    expect(floored.noise).toBe(config.noise);
    const leveled = withLiveSettings(config, { noise: { level: 0.7 } });
    expect(leveled.noise).toEqual({ ...config.noise, level: 0.7 });
    expect(leveled.dppo).toBe(config.dppo);
    expect(liveSettingsOf(floored)).toEqual({ noise: config.noise, dppo: { min_sampling_std: 0.3 } });
  });

  it('a diffusion run takes a new std floor from its next rollout; a refused one changes nothing', async () => {
    // T = 4, the last 2 steps fine-tuned; a floor of 2 lies above every DDPM std of a 4-step cosine schedule (< 1).
    const config = tinyConfig(['policy.kind=diffusion', 'policy.denoise_steps=4', 'dppo.ft_denoising_steps=2', 'dppo.min_sampling_std=0.1', 'ppo.minibatch_size=8']);
    const opened = await openRun(config, undefined, { openEnv: async (envConfig) => new InThreadBatchEnv(mj, envConfig), clock: () => 0 });
    const { run } = opened;
    try {
      const first = await run.step();
      expect(first['noise/std']).toBeLessThan(2);
      const { policy, noise } = run.config;
      run.setLive({ dppo: { min_sampling_std: 2 } });
      expect(run.config.dppo.min_sampling_std).toBe(2);
      expect(run.config.policy).toBe(policy);
      expect(run.config.noise).toBe(noise);
      expect(Object.isFrozen(run.config.dppo)).toBe(true);
      // Every step's std is the floor now: their mean, the logged noise/std, is 2.
      expect((await run.step())['noise/std']).toBeCloseTo(2, 6);
      expect(() => run.setLive({ dppo: { min_sampling_std: -0.5 } })).toThrow(ConfigError);
      expect(run.config.dppo.min_sampling_std).toBe(2);
    } finally {
      await opened.close();
    }
  });
});
