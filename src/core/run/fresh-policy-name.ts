/** How a host names the fresh policy a run without a checkpoint starts from, e.g. 'mlp' or 'Gaussian 64×64'. */
import type { RunConfig } from '../config/run-config';

export function freshPolicyName(config: RunConfig): string {
  return config.policy.kind === 'gaussian' ? `Gaussian ${config.policy.gaussian_hidden.join('×')}` : config.policy.velocity_net;
}
