import type { RunConfig } from '../config/run-config';
import { FlowPolicy } from '../policy/flow-policy';
import { MinMaxNormalizer, poolPointRanges } from '../policy/normalizer';
import type { PolicyBundle } from '../policy/policy-bundle';
import { policyOptionsFromConfig } from '../rl/policy-setup';

/**
 * A freshly initialized policy for runs without a checkpoint. Observation ranges come
 * from the first reset, widened by ±1 so early states stay near [-1, 1]; actions span [-1, 1].
 */
export function freshBundle(config: RunConfig, firstObs: Float32Array, obsFrameSize: number, actionDim: number): PolicyBundle {
  const raw = MinMaxNormalizer.fit(firstObs, obsFrameSize, 'obs_normalizer').toJSON();
  const fitted = config.env.obs_type === 'pointcloud' ? poolPointRanges(raw, config.env.num_points) : raw;
  const obsNormalizer = new MinMaxNormalizer({ min: fitted.min.map((value) => value - 1), max: fitted.max.map((value) => value + 1) }, 'obs_normalizer');
  const actionNormalizer = new MinMaxNormalizer({ min: new Array(actionDim).fill(-1), max: new Array(actionDim).fill(1) }, 'action_normalizer');
  const policy = new FlowPolicy(policyOptionsFromConfig(config, obsFrameSize, actionDim), config.seed);
  return { policy, obsNormalizer, actionNormalizer };
}
