/**
 * One line describing a decoded checkpoint's policy for a host's model panel, whatever its family:
 * "point cloud 128 pts · DiT-X 64×2, 4 heads · H 8 · K 4 · act 4", "state · MLP [128, 128, 128] · H 8 ·
 * K 4 · obs 39 · act 4", "state · ReinFlow FlowMLP [512, 512, 512], ReLU · H 4 · K 4 · obs 11 · act 3" or
 * "state · Gaussian MLP [64, 64] · obs 11 · act 3".
 */
import type { FlowPolicyOptions } from '../policy/options';
import type { FamilyCheckpoint } from './family-checkpoint';

function velocityNetText(arch: FlowPolicyOptions): string {
  if (arch.velocityNet === 'ditx') return `DiT-X ${arch.ditxDim}×${arch.ditxDepth}, ${arch.ditxHeads} heads`;
  if (arch.velocityNet === 'unet1d') return `UNet1D [${arch.unetDims.join(', ')}], kernel ${arch.unetKernel}`;
  if (arch.velocityNet !== 'reflow_mlp') return `MLP [${arch.velocityHidden.join(', ')}]`;
  // ReinFlow's Gym configs use its ResidualMLP without LayerNorm: only what differs is said.
  const layout = arch.reflow;
  const extras = layout ? [layout.activation, ...(layout.residual ? [] : ['plain MLP']), ...(layout.layerNorm ? ['LayerNorm'] : [])] : [];
  return [`ReinFlow FlowMLP [${arch.velocityHidden.join(', ')}]`, ...extras].join(', ');
}

export function describeCheckpointPolicy(checkpoint: FamilyCheckpoint): string {
  if (checkpoint.kind === 'gaussian') {
    const { hidden, obsDim, actionDim } = checkpoint.options;
    return ['state', `Gaussian MLP [${hidden.join(', ')}]`, `obs ${obsDim}`, `act ${actionDim}`].join(' · ');
  }
  const arch = checkpoint.architecture;
  const steps = (checkpoint.metadata.architecture as Record<string, unknown>).denoise_steps ?? '?';
  const image = arch.image;
  const observation = arch.obsEncoder === 'pointcloud' ? `point cloud ${arch.numPoints} pts`
    : image ? `${image.channels === 4 ? 'rgbd' : 'rgb'} ${image.cameras.join(', ')} ${image.size}×${image.size}` : 'state';
  const net = velocityNetText(arch);
  // A point-cloud frame is mostly points: its proprioception size would read as the obs size.
  const obs = arch.obsEncoder === 'pointcloud' ? [] : [`obs ${arch.obsDim}`];
  return [observation, net, `H ${arch.horizon}`, `K ${steps}`, ...obs, `act ${arch.actionDim}`].join(' · ');
}
