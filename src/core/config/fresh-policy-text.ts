/**
 * The policy a config builds when Train starts without a checkpoint, in one line for a model panel,
 * in the words describe-checkpoint uses for a checkpoint's: "rgb 24×24 from the first camera, CNN [4, 8] → 16 ·
 * UNet1D [8, 16], kernel 5 · H 4 · K 4", "state · MLP [256, 256, 256] · H 8 · K 4", "state · Gaussian MLP [64, 64]".
 */
import type { RunConfig } from './run-config';

function observationText(config: RunConfig): string {
  const { env, policy } = config;
  if (env.obs_type === 'state') return 'state';
  if (env.obs_type === 'pointcloud' || env.obs_type === 'depth_pointcloud') {
    const cloud = env.obs_type === 'pointcloud' ? 'point cloud' : 'depth point cloud';
    return `${cloud} ${env.num_points} pts, PointNet [${policy.encoder_hidden.join(', ')}]`;
  }
  const cameras = env.camera === 'default' ? 'the first camera' : env.camera.split(',').join(', ');
  return `${env.obs_type} ${env.image_size}×${env.image_size} from ${cameras}, CNN [${policy.cnn_channels.join(', ')}] → ${policy.image_features}`;
}

function velocityNetText(policy: RunConfig['policy']): string {
  if (policy.velocity_net === 'ditx') return `DiT-X ${policy.ditx_dim}×${policy.ditx_depth}, ${policy.ditx_heads} heads`;
  if (policy.velocity_net === 'unet1d') return `UNet1D [${policy.unet_dims.join(', ')}], kernel ${policy.unet_kernel}`;
  if (policy.velocity_net === 'reflow_mlp') return `ReinFlow FlowMLP [${policy.hidden.join(', ')}]`;
  return `MLP [${policy.hidden.join(', ')}]`;
}

/** The fresh policy of `config`, observation first. */
export function freshPolicyText(config: RunConfig): string {
  const { policy } = config;
  if (policy.kind === 'gaussian') return `${observationText(config)} · Gaussian MLP [${policy.gaussian_hidden.join(', ')}]`;
  const family = policy.kind === 'diffusion' ? 'diffusion ' : '';
  return [observationText(config), `${family}${velocityNetText(policy)}`, `H ${policy.horizon}`, `K ${policy.denoise_steps}`].join(' · ');
}
