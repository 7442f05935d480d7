import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig, validateConfig } from '../config';
import { taskVariantConfig } from './task-variant-config';

const ARM_CONTROLS = new Set(['ee_delta_pos', 'joint_delta_pos']);

describe('taskVariantConfig (the task picker\'s choice)', () => {
  it('observes a camera variant one frame per decision and keeps the user\'s policy, so the config validates', () => {
    const config = validateConfig(applyOverrides(defaultConfig(), ['policy.velocity_net=unet1d', 'policy.n_obs_steps=2', 'env.image_size=24']));
    const next = taskVariantConfig(config, 'pick-cube', 'rgb', ARM_CONTROLS);
    expect(next.env.obs_type).toBe('rgb');
    expect(next.policy.n_obs_steps).toBe(1);
    expect(next.policy.velocity_net).toBe('unet1d');
    expect(next.env.image_size).toBe(24);
    expect(validateConfig(next)).toEqual(next);
    // The default config's two-frame history would be refused with images.
    expect(() => validateConfig({ ...next, policy: { ...next.policy, n_obs_steps: 2 } })).toThrow(/n_obs_steps \(2\) must be 1/);
    expect(taskVariantConfig(config, 'pick-cube', 'rgbd', ARM_CONTROLS).policy.n_obs_steps).toBe(1);
  });

  it('leaves the history of state and point-cloud variants, and does not change the config it was given', () => {
    const config = validateConfig(applyOverrides(defaultConfig(), ['policy.n_obs_steps=3']));
    for (const obsType of ['state', 'pointcloud', 'depth_pointcloud'] as const) {
      const next = taskVariantConfig(config, 'lift', obsType, ARM_CONTROLS);
      expect(next).toMatchObject({ task: 'lift', env: { obs_type: obsType }, policy: { n_obs_steps: 3 } });
    }
    expect(config.task).toBe('pick-cube');
    expect(config.env.obs_type).toBe('state');
  });

  it('keeps a control the new task has, and goes back to the task\'s default for one it lacks', () => {
    const config = validateConfig(applyOverrides(defaultConfig(), ['env.control_mode=joint_delta_pos']));
    expect(taskVariantConfig(config, 'lift', 'rgb', ARM_CONTROLS).env.control_mode).toBe('joint_delta_pos');
    expect(taskVariantConfig(config, 'hopper', 'state', new Set(['motor'])).env.control_mode).toBe('default');
  });
});
