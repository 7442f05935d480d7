/**
 * The model a backend choice times: the selected checkpoint's own weights (decoded arrays, so a
 * copy lands on each backend tried) or, without one, a fresh policy of the config's architecture.
 * Its key says when a choice must be made again: another model, other sizes, other sampling.
 */
import type { PolicyCheckpoint } from '../checkpoint/checkpoint-open';
import { bundleFromCheckpoint } from '../checkpoint/policy-checkpoint';
import type { FamilyCheckpoint } from '../run/family-checkpoint';
import type { RunConfig } from '../config/run-config';
import { FlowPolicy } from '../policy/flow-policy';
import type { FlowPolicyOptions } from '../policy/options';
import { policyOptionsFromConfig } from '../rl/policy-setup';
import { envShapes } from '../run/open-checkpoint';
import { workloadOf } from './backend-speed';

/** Only a flow policy is timed: another family's checkpoint times as no checkpoint would. */
const flowOnly = (checkpoint: FamilyCheckpoint | undefined): PolicyCheckpoint | undefined => (checkpoint?.kind === 'flow' ? checkpoint : undefined);

export function measuredArchitecture(config: RunConfig, checkpoint: FamilyCheckpoint | undefined): FlowPolicyOptions {
  const flow = flowOnly(checkpoint);
  if (flow) return flow.architecture;
  const shapes = envShapes(config);
  return policyOptionsFromConfig(config, shapes.obsFrameSize, shapes.actionDim);
}

/** A live copy of the model on the backend in use; the caller disposes it. */
export function measuredPolicy(config: RunConfig, checkpoint: FamilyCheckpoint | undefined): FlowPolicy {
  const flow = flowOnly(checkpoint);
  if (flow) return bundleFromCheckpoint(flow, config.policy).bundle.policy;
  return new FlowPolicy(measuredArchitecture(config, checkpoint), config.seed);
}

/** Equal keys, equal work: the architecture, the iteration's sizes and what shapes sampling and the loss. */
export function measurementKey(config: RunConfig, checkpoint: FamilyCheckpoint | undefined): string {
  const { noise, policy } = config;
  return JSON.stringify({
    architecture: measuredArchitecture(config, checkpoint),
    workload: workloadOf(config),
    sampling: [noise.method, noise.mode, noise.logprob_type, policy.denoise_steps, policy.n_action_steps, policy.freeze_encoder, config.env.obs_type],
  });
}

/**
 * The model a backend choice times for a run: the flow policy's; undefined for a family that is not timed, and for a
 * policy on camera images, whose timing calls have no images to feed it (they train on wasm).
 */
export function timedModel(config: RunConfig, checkpoint: FamilyCheckpoint | undefined): { config: RunConfig; checkpoint?: PolicyCheckpoint } | undefined {
  if (config.policy.kind !== 'flow' || config.env.obs_type === 'rgb' || config.env.obs_type === 'rgbd') return undefined;
  return { config, checkpoint: flowOnly(checkpoint) };
}
