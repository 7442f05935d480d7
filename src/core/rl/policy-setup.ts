import type { RunConfig } from '../config/run-config';
import { noiseAt } from '../config/noise-at';
import { ConfigError } from '../errors';
import type { SampleMode, SamplerOptions } from '../flow/sampling-options';
import type { LogProbSlice } from '../flow/logprob-reduce';
import type { FlowPolicyOptions } from '../policy/options';

/** The policy architecture a run config asks for, given the env's obs and action sizes. */
export function policyOptionsFromConfig(config: RunConfig, obsDim: number, actionDim: number): FlowPolicyOptions {
  if (config.policy.velocity_net !== 'mlp') {
    throw new ConfigError('policy.velocity_net', `policy.velocity_net '${config.policy.velocity_net}' is not available in this build; allowed values: mlp`);
  }
  if (config.env.obs_type !== 'state') {
    throw new ConfigError('env.obs_type', `env.obs_type '${config.env.obs_type}' is not wired into training yet; allowed values: state`);
  }
  return {
    obsEncoder: 'state',
    obsDim,
    nObsSteps: config.policy.n_obs_steps,
    horizon: config.policy.horizon,
    actionDim,
    velocityHidden: [...config.policy.hidden],
    encoderHidden: [...config.policy.encoder_hidden],
    pointFeatureDim: 64,
    timeEmbedDim: 32,
    shortcut: true,
    valueHidden: [...config.policy.value_hidden],
    valueOn: config.policy.value_on,
    detachCriticInput: config.policy.detach_critic_input,
    noiseHead: true,
    noiseHidden: [...config.policy.noise_head_hidden],
  };
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
  };
}

/** Which part of a chunk PPO scores: the executed steps and the env's action dims (DESIGN.md §3 "Log-prob"). */
export function logProbSliceFromConfig(config: RunConfig, envActionDim: number): LogProbSlice {
  return { logprobType: config.noise.logprob_type, nActionSteps: config.policy.n_action_steps, envActionDim };
}
