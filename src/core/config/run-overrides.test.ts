import { describe, expect, it } from 'vitest';
import { defaultConfig } from './access';
import { PRESETS } from './presets';
import { checkpointFixedKeys } from './checkpoint-conflicts';
import {
  asRunOverrides, configFromRunOverrides, matchingPreset, overrideKeys, presetConfigOver, presetNamed, runOverrides,
} from './run-overrides';

function configErrorOf(fn: () => unknown): Error & { field?: string } {
  try {
    fn();
  } catch (error) {
    expect((error as Error).name).toBe('ConfigError');
    return error as Error;
  }
  throw new Error('expected a ConfigError');
}

describe('runOverrides', () => {
  it('puts the preset first, so the caller\'s overrides win over it', () => {
    const run = runOverrides('reinflow-baseline', ['policy.denoise_steps=2', 'num_envs=8']);
    expect(run.preset).toBe('reinflow-baseline');
    expect(run.presetOverrides).toEqual(PRESETS['reinflow-baseline'].overrides);
    expect(run.userOverrides).toEqual(['policy.denoise_steps=2', 'num_envs=8']);
    expect(run.overrides).toEqual([...PRESETS['reinflow-baseline'].overrides, 'policy.denoise_steps=2', 'num_envs=8']);
    const config = configFromRunOverrides(run);
    // The preset sets K = 8 and 16 envs; the caller's values win, the preset's others stay.
    expect([config.policy.denoise_steps, config.num_envs, config.noise.method, config.actor_lr]).toEqual([2, 8, 'noise', 3e-5]);
  });

  it('without a preset is just the caller\'s overrides over the base', () => {
    const run = runOverrides(undefined, ['seed=3']);
    expect(run).toEqual({ preset: undefined, presetOverrides: [], userOverrides: ['seed=3'], overrides: ['seed=3'] });
    expect(configFromRunOverrides(run, { ...defaultConfig(), num_envs: 8 })).toMatchObject({ seed: 3, num_envs: 8 });
    expect(asRunOverrides(['seed=3'])).toEqual(run);
    expect(asRunOverrides(run)).toBe(run);
  });

  it('rejects an unknown preset in one line that lists every allowed name', () => {
    const error = configErrorOf(() => runOverrides('tinny', []));
    expect(error.field).toBe('preset');
    expect(error.message).toMatch(/^unknown preset 'tinny'; did you mean tiny\? allowed presets: default, tiny, gaussian-ppo, locomotion-reinflow, locomotion-flowsde, reinflow-baseline, /);
    expect(error.message).toContain('reinflow-epochs-8');
    expect(error.message).not.toContain('\n');
    expect(configErrorOf(() => presetNamed('zzz')).message).toMatch(/^unknown preset 'zzz'; allowed presets: default, /);
  });

  it('validates the joined config', () => {
    // The tiny preset's horizon is 4, so 8 executed steps cannot fit.
    expect(configErrorOf(() => configFromRunOverrides(runOverrides('tiny', ['policy.n_action_steps=8']))).message)
      .toContain('policy.n_action_steps (8) must be ≤ policy.horizon (4)');
  });
});

describe('presetConfigOver', () => {
  it('is the defaults plus the preset, on the given task', () => {
    const config = presetConfigOver('tiny', { ...defaultConfig(), task: 'reach' });
    expect(config.task).toBe('reach');
    expect(config.policy.hidden).toEqual([32, 32]);
    expect(config.ppo.clip_low).toBe(defaultConfig().ppo.clip_low);
  });
});

describe('matchingPreset', () => {
  it('names the preset a config is, on any task, and nothing once a field is changed', () => {
    expect(matchingPreset(defaultConfig())).toBe('default');
    expect(matchingPreset(presetConfigOver('reinflow-steps-16', { ...defaultConfig(), task: 'lift' }))).toBe('reinflow-steps-16');
    expect(matchingPreset({ ...presetConfigOver('tiny', { ...defaultConfig(), task: 'reach' }), seed: 5 })).toBeUndefined();
  });

  it('passes over presets that cannot apply over the kept fields of a Gaussian checkpoint, and still finds its own', () => {
    const gaussian = presetConfigOver('gaussian-ppo', { ...defaultConfig(), task: 'hopper' });
    const kept = checkpointFixedKeys(gaussian);
    expect(kept).toContain('policy.kind');
    // A flow preset over policy.kind=gaussian, horizon 1, is no valid config: it is skipped, not thrown.
    expect(() => presetConfigOver('reinflow-steps-16', gaussian, kept)).toThrow();
    expect(matchingPreset(gaussian, kept)).toBe('gaussian-ppo');
    expect(matchingPreset({ ...gaussian, seed: 9 }, kept)).toBeUndefined();
  });
});

describe('overrideKeys', () => {
  it('lists each key once, first mention first', () => {
    expect(overrideKeys(['video.every=2', 'seed=1', 'video.every=4'])).toEqual(['video.every', 'seed']);
  });
});
