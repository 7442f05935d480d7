/**
 * The point cloud a point-cloud policy sees in one observation (the chain view's 3D overlay):
 * the newest frame's points in env units, and the share of the PointNet's max-pool channels
 * each point wins on that frame, normalized as the policy normalizes it.
 */
import { obsFrameSize } from '../policy/options';
import type { PolicyBundle } from '../policy/policy-bundle';
import { pointWinShares } from '../policy/point-wins';
import type { PolicyPointCloud } from '../../protocol/trainer-api';

/** rawStackedObs: [nObs·frameSize] in env units; undefined for a state policy. */
export async function policyPointCloud(bundle: PolicyBundle, rawStackedObs: Float32Array): Promise<PolicyPointCloud | undefined> {
  const { options } = bundle.policy;
  if (options.obsEncoder !== 'pointcloud') return undefined;
  const frameSize = obsFrameSize(options);
  const frame = rawStackedObs.subarray(rawStackedObs.length - frameSize);
  const shares = await pointWinShares(bundle.policy, bundle.obsNormalizer.normalize(frame));
  return { points: frame.slice(0, options.numPoints * 3), shares };
}
