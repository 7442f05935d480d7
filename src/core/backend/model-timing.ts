/**
 * Timing the model of a backend choice, the same on every host (the CLI's backend=auto, the studio's
 * trainer): a fresh copy of the model on the backend in use, timed and disposed; and the sizes a
 * choice was timed at, as both hosts report them.
 */
import type { RunConfig } from '../config/run-config';
import type { FamilyCheckpoint } from '../run/family-checkpoint';
import { workloadOf } from './backend-speed';
import { measuredPolicy } from './measured-model';
import { measurePolicySpeed, type PolicySpeed, type SpeedPlan } from './policy-speed';

/** Times the model on the backend in use; `boundSeconds` lets a slow backend stop early (policy-speed). */
export async function timeModel(config: RunConfig, checkpoint: FamilyCheckpoint | undefined, boundSeconds: number, plan?: SpeedPlan): Promise<PolicySpeed> {
  const policy = measuredPolicy(config, checkpoint);
  try {
    return await measurePolicySpeed(policy, config, plan, boundSeconds);
  } finally {
    policy.dispose();
  }
}

/** "64 envs, minibatch 2048": the sizes a choice timed the model at. */
export function timedSizes(config: RunConfig): string {
  return `${config.num_envs} envs, minibatch ${workloadOf(config).minibatchSize}`;
}
