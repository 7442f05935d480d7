import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig } from '.';
import { ConfigError } from '../errors';
import { parseFieldValue } from './field-values';
import { PRESETS } from './presets';
import { listConfigProblems } from './validate';
import { CLI_TRAIN_HOST, configWarnings } from './warnings';

const rgb = (overrides: string[] = []) => applyOverrides(defaultConfig(), ['task=pick-cube', 'env.obs_type=rgb', 'policy.n_obs_steps=1', ...overrides]);
const messages = (overrides: string[]) => listConfigProblems(rgb(overrides)).map((problem) => `${problem.field}: ${problem.message}`);

describe('image observation config (env.obs_type rgb, rgbd; env.camera; env.image_size)', () => {
  it('takes camera names comma-separated, the task\'s first camera by default, and image sizes within bounds', () => {
    expect(defaultConfig().env).toMatchObject({ camera: 'default', image_size: 64 });
    expect(parseFieldValue('env.camera', 'front, wrist')).toBe('front,wrist');
    expect(() => parseFieldValue('env.camera', 'front,,wrist')).toThrow(ConfigError);
    expect(() => parseFieldValue('env.camera', 'front;wrist')).toThrow("env.camera must be one or more names of letters, digits, '_', '-' and '.' separated by commas (at most 8)");
    expect(() => parseFieldValue('env.image_size', '2')).toThrow(/env\.image_size must be an integer in \[4, 512\]/);
    expect(listConfigProblems(rgb())).toEqual([]);
  });

  it('refuses what image policies cannot do yet, each with one sentence saying how to fix it', () => {
    expect(messages(['policy.n_obs_steps=2'])).toEqual([
      'policy.n_obs_steps: policy.n_obs_steps (2) must be 1 with env.obs_type=rgb: image observations keep no history (one observation\'s images per decision)',
    ]);
    // 16 → 7 → 3 → 1 → nothing.
    expect(messages(['env.image_size=16', 'policy.cnn_channels=8,8,8,8'])).toEqual([
      'policy.cnn_channels: policy.cnn_channels has 4 stride-2 layers, which shrink env.image_size=16 images to nothing; use fewer layers or a larger env.image_size',
    ]);
    expect(messages(['policy.velocity_net=reflow_mlp'])).toContain("policy.velocity_net: policy.velocity_net=reflow_mlp (ReinFlow's FlowMLP) reads the state; use mlp, ditx or unet1d with env.obs_type=rgb");
    expect(messages(['policy.kind=gaussian', 'policy.horizon=1', 'policy.n_action_steps=1']))
      .toContain('env.obs_type: env.obs_type must be state with policy.kind=gaussian (or use preset=gaussian-ppo): the Gaussian policy has no point-cloud or image encoder');
  });

  it('takes camera images for the diffusion family too (DPPO\'s preset, a UNet1D ε net), and refuses its frozen encoder in one sentence', () => {
    expect(listConfigProblems(rgb([...PRESETS.dppo.overrides]))).toEqual([]);
    expect(listConfigProblems(rgb([...PRESETS.dppo.overrides, 'env.obs_type=rgbd', 'policy.velocity_net=unet1d', 'policy.horizon=16']))).toEqual([]);
    expect(messages([...PRESETS.dppo.overrides, 'policy.freeze_encoder=true'])).toEqual([
      'policy.freeze_encoder: policy.freeze_encoder=true is not supported with policy.kind=diffusion: DPPO fine-tunes the whole net; use auto or false',
    ]);
  });

  it('warns that camera and image-encoder keys do nothing without image observations', () => {
    const state = applyOverrides(defaultConfig(), ['env.camera=wrist', 'policy.image_shift=2']);
    expect(configWarnings(state, ['env.camera', 'policy.image_shift'], CLI_TRAIN_HOST)).toEqual([
      "env.camera=wrist does nothing with env.obs_type=state; only depth point clouds and camera images (env.obs_type=depth_pointcloud, rgb or rgbd) render the task's cameras",
      'policy.image_shift=2 does nothing with env.obs_type=state; image-encoder keys apply to image observations only (env.obs_type=rgb or rgbd)',
    ]);
  });
});
