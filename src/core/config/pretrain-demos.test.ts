import { describe, expect, it } from 'vitest';
import { defaultConfig } from './access';
import { overriddenKeys, pretrainConfigForDemos } from './pretrain-demos';

const stateDemos = { obs_mode: 'state' as const, obs_slices: [{ name: 'qpos', dim: 9 }] };
const cloudDemos = { obs_mode: 'pointcloud' as const, obs_slices: [{ name: 'points', dim: 64 * 3 }, { name: 'qpos', dim: 9 }] };

describe('pretrainConfigForDemos', () => {
  it('takes the observation kind and point count from the demos when the user set neither', () => {
    const config = defaultConfig();
    const cloud = pretrainConfigForDemos(config, cloudDemos);
    expect(cloud.env).toMatchObject({ obs_type: 'pointcloud', num_points: 64 });
    expect(config.env.obs_type).toBe('state');
    const state = pretrainConfigForDemos({ ...config, env: { ...config.env, obs_type: 'pointcloud', num_points: 32 } }, stateDemos);
    expect(state.env).toMatchObject({ obs_type: 'state', num_points: 32 });
  });

  it('refuses a key the user set that asks for another observation than the demos hold', () => {
    const config = defaultConfig();
    expect(() => pretrainConfigForDemos(config, cloudDemos, ['env.obs_type'])).toThrow('env.obs_type=state but the demos hold pointcloud observations');
    const asked = { ...config, env: { ...config.env, obs_type: 'pointcloud' as const, num_points: 128 } };
    expect(() => pretrainConfigForDemos(asked, cloudDemos, ['env.num_points'])).toThrow('env.num_points=128 but the demos hold 64 points per observation');
    // A pinned key that agrees, or one the demos do not decide (state demos hold no points), is kept.
    expect(pretrainConfigForDemos({ ...asked, env: { ...asked.env, num_points: 64 } }, cloudDemos, ['env.obs_type', 'env.num_points']).env.num_points).toBe(64);
    expect(pretrainConfigForDemos(config, stateDemos, ['env.num_points']).env.obs_type).toBe('state');
  });
});

describe('overriddenKeys', () => {
  it('names the keys of key=value overrides', () => {
    expect(overriddenKeys(['env.obs_type=state', 'pretrain.steps=5'])).toEqual(['env.obs_type', 'pretrain.steps']);
  });
});
