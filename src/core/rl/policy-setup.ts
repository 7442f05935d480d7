import type { RunConfig } from '../config/run-config';
import { noiseAt } from '../config/noise-at';
import { hasPointCloud } from '../envs/task-types';
import { ConfigError } from '../errors';
import type { SampleMode, SamplerOptions } from '../flow/sampling-options';
import type { LogProbSlice } from '../flow/logprob-reduce';
import { encoderForObsType, type FlowPolicyOptions } from '../policy/options';
import type { ImageEncoderOptions } from '../policy/image-encoder-options';
import { parseCameraList } from '../envs/camera/camera-lookup';

/** The image encoder a run config asks for; `cameras` are the env's (names resolved against the scene) when known. */
export function imageEncoderFromConfig(config: RunConfig, cameras?: readonly string[]): ImageEncoderOptions {
  return {
    cameras: [...(cameras ?? parseCameraList(config.env.camera))],
    size: config.env.image_size,
    channels: config.env.obs_type === 'rgbd' ? 4 : 3,
    convChannels: [...config.policy.cnn_channels],
    featureDim: config.policy.image_features,
  };
}

/**
 * The policy architecture a run config asks for, given the env's per-frame observation size (for
 * point clouds, N×3 points plus proprioception) and action size, and for image observations the
 * cameras the env renders (their names resolved against the scene).
 */
export function policyOptionsFromConfig(config: RunConfig, obsFrameSize: number, actionDim: number, cameras?: readonly string[]): FlowPolicyOptions {
  // Both point clouds, surface-sampled or from depth cameras, are [N, 3] world points for the same encoder.
  const pointcloud = hasPointCloud(config.env.obs_type);
  const obsEncoder = encoderForObsType(config.env.obs_type);
  const numPoints = pointcloud ? config.env.num_points : 0;
  const obsDim = obsFrameSize - numPoints * 3;
  // A diffusion policy (DESIGN.md §17) is DPPO's: ε from (x_t, t, obs), no step-size input, no noise head, the critic on the observation.
  const diffusion = config.policy.kind === 'diffusion';
  if (obsDim < 1) {
    throw new ConfigError('env.num_points', `observation frames of ${obsFrameSize} values cannot hold env.num_points=${numPoints} points plus proprioception`);
  }
  return {
    obsEncoder,
    obsDim,
    ...(obsEncoder === 'image' ? { image: imageEncoderFromConfig(config, cameras) } : {}),
    numPoints,
    nObsSteps: config.policy.n_obs_steps,
    horizon: config.policy.horizon,
    actionDim,
    velocityNet: config.policy.velocity_net,
    velocityHidden: [...config.policy.hidden],
    ditxDim: config.policy.ditx_dim,
    ditxDepth: config.policy.ditx_depth,
    ditxHeads: config.policy.ditx_heads,
    unetDims: [...config.policy.unet_dims],
    unetKernel: config.policy.unet_kernel,
    unetGroups: config.policy.unet_groups,
    encoderHidden: [...config.policy.encoder_hidden],
    pointFeatureDim: 64,
    // ReinFlow's FlowMLP: its time_dim 16 and no step-size input.
    timeEmbedDim: config.policy.velocity_net === 'reflow_mlp' ? 16 : 32,
    shortcut: !diffusion && config.policy.velocity_net !== 'reflow_mlp',
    valueHidden: [...config.policy.value_hidden],
    valueOn: diffusion ? 'obs' : config.policy.value_on,
    detachCriticInput: config.policy.detach_critic_input,
    noiseHead: !diffusion,
    noiseHidden: [...config.policy.noise_head_hidden],
    // A fresh FlowMLP samples on ReFlow.sample's grid, so its export runs in ReinFlow as it runs here.
    ...(config.policy.velocity_net === 'reflow_mlp' && !diffusion ? { timeGrid: 'reinflow' as const } : {}),
    ...(diffusion ? { prediction: 'epsilon' as const } : {}),
  };
}

/** Whether PPO keeps the encoder fixed and stores its features at rollout time (`auto`: for point clouds of either kind, not for state or images). */
export function encoderFrozen(config: RunConfig): boolean {
  const setting = config.policy.freeze_encoder;
  return setting === 'auto' ? hasPointCloud(config.env.obs_type) : setting === 'true';
}

/** Sampler options for training rollouts (mode from the config) or evaluation (all ODE). */
export function samplerOptionsAt(config: RunConfig, envSteps: number, purpose: 'train' | 'eval'): SamplerOptions {
  const noise = noiseAt(config, envSteps);
  const mode: SampleMode = purpose === 'eval' ? 'eval' : config.noise.mode;
  return {
    method: purpose === 'eval' ? 'ode' : config.noise.method,
    mode,
    steps: config.policy.denoise_steps,
    level: noise.level,
    bounds: { stdMin: noise.stdMin, stdMax: noise.stdMax },
    // The policy's own map, so training chains and evaluation clamp alike.
    denoisedClamp: config.policy.denoised_clamp,
  };
}

/** Which part of a chunk PPO scores: the executed steps and the env's action dims (DESIGN.md §3 "Log-prob"). */
export function logProbSliceFromConfig(config: RunConfig, envActionDim: number): LogProbSlice {
  return { logprobType: config.noise.logprob_type, nActionSteps: config.policy.n_action_steps, envActionDim };
}
