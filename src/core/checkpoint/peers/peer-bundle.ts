import { FlowPolicy } from '../../policy/flow-policy';
import { MinMaxNormalizer } from '../../policy/normalizer';
import type { PolicyBundle } from '../../policy/policy-bundle';
import type { ImportedPeerPolicy } from './reinflow-import';

/**
 * A live policy from an imported peer checkpoint: the file's tensors, and for what the file does not hold (a
 * pretraining file's noise net and critic) the fresh initialization of seed `seed`.
 */
export async function peerPolicyBundle(imported: ImportedPeerPolicy, seed = 0): Promise<PolicyBundle> {
  const policy = new FlowPolicy(imported.architecture, seed);
  try {
    const weights = await policy.getWeights();
    for (const [name, entry] of imported.weights) weights.set(name, entry);
    policy.setWeights(weights);
  } catch (error) {
    policy.dispose();
    throw error;
  }
  return {
    policy,
    obsNormalizer: new MinMaxNormalizer(imported.normalizer.obs, 'obs_normalizer'),
    actionNormalizer: new MinMaxNormalizer(imported.normalizer.action, 'action_normalizer'),
  };
}
