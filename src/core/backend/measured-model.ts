/**
 * The model a backend choice times: the selected checkpoint's own weights (decoded arrays, so a
 * copy lands on each backend tried) or, without one, a fresh policy of the config's architecture.
 * Its key says when a choice must be made again: another model, other sizes, other sampling.
 */
import type { PolicyCheckpoint } from '../checkpoint/checkpoint-open';
import { bundleFromCheckpoint } from '../checkpoint/policy-checkpoint';
import type { RunConfig } from '../config/run-config';
import { FlowPolicy } from '../policy/flow-policy';
import type { FlowPolicyOptions } from '../policy/options';
import { policyOptionsFromConfig } from '../rl/policy-setup';
import { envShapes } from '../run/open-checkpoint';
import { workloadOf } from './backend-speed';

export function measuredArchitecture(config: RunConfig, checkpoint: PolicyCheckpoint | undefined): FlowPolicyOptions {
  if (checkpoint) return checkpoint.architecture;
  const shapes = envShapes(config);
  return policyOptionsFromConfig(config, shapes.obsFrameSize, shapes.actionDim);
}

/** A live copy of the model on the backend in use; the caller disposes it. */
export function measuredPolicy(config: RunConfig, checkpoint: PolicyCheckpoint | undefined): FlowPolicy {
  if (checkpoint) return bundleFromCheckpoint(checkpoint, config.policy.detach_critic_input).bundle.policy;
  return new FlowPolicy(measuredArchitecture(config, checkpoint), config.seed);
}

/** Equal keys, equal work: the architecture, the iteration's sizes and what shapes sampling and the loss. */
export function measurementKey(config: RunConfig, checkpoint: PolicyCheckpoint | undefined): string {
  const { noise, policy } = config;
  return JSON.stringify({
    architecture: measuredArchitecture(config, checkpoint),
    workload: workloadOf(config),
    sampling: [noise.method, noise.mode, noise.logprob_type, policy.denoise_steps, policy.n_action_steps, policy.freeze_encoder, config.env.obs_type],
  });
}
