/** How hosts name policy families in sentences: 'flow', 'Gaussian', and the fresh policy a run without a checkpoint starts from. */
import type { RunConfig } from '../config/run-config';

/** The family's name as a sentence writes it. */
export function familyLabel(kind: RunConfig['policy']['kind']): string {
  return kind === 'gaussian' ? 'Gaussian' : kind;
}

/** The fresh policy of `config`, e.g. 'mlp' or 'Gaussian 64×64'. */
export function freshPolicyName(config: RunConfig): string {
  return config.policy.kind === 'gaussian' ? `${familyLabel('gaussian')} ${config.policy.gaussian_hidden.join('×')}` : config.policy.velocity_net;
}
