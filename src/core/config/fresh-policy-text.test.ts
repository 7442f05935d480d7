import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig, presetConfig } from './index';
import { freshPolicyText } from './fresh-policy-text';

const text = (overrides: string[]) => freshPolicyText(applyOverrides(defaultConfig(), overrides));

describe('freshPolicyText (the model panel\'s line for a fresh policy)', () => {
  it('names an image policy\'s cameras, size and CNN, then its velocity net and chunking', () => {
    expect(text(['env.obs_type=rgb', 'env.image_size=24', 'policy.cnn_channels=4,8', 'policy.image_features=16', 'policy.velocity_net=unet1d', 'policy.unet_dims=8,16', 'policy.horizon=4', 'policy.denoise_steps=4']))
      .toBe('rgb 24×24 from the first camera, CNN [4, 8] → 16 · UNet1D [8, 16], kernel 5 · H 4 · K 4');
    expect(text(['env.obs_type=rgbd', 'env.camera=front,wrist', 'policy.hidden=32,32']))
      .toBe('rgbd 64×64 from front, wrist, CNN [16, 32, 32] → 64 · MLP [32, 32] · H 8 · K 4');
  });

  it('describes state, point-cloud, DiT-X, diffusion and Gaussian policies', () => {
    expect(text([])).toBe('state · MLP [256, 256, 256] · H 8 · K 4');
    expect(text(['env.obs_type=depth_pointcloud', 'env.num_points=64', 'policy.encoder_hidden=16,32', 'policy.velocity_net=ditx', 'policy.ditx_dim=32', 'policy.ditx_depth=1']))
      .toBe('depth point cloud 64 pts, PointNet [16, 32] · DiT-X 32×1, 4 heads · H 8 · K 4');
    expect(text(['policy.kind=diffusion', 'policy.denoise_steps=20'])).toBe('state · diffusion MLP [256, 256, 256] · H 8 · K 20');
    expect(freshPolicyText(presetConfig('gaussian-ppo'))).toBe('state · Gaussian MLP [64, 64]');
  });
});
