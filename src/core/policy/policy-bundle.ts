import type { FlowPolicy } from './flow-policy';
import type { MinMaxNormalizer } from './normalizer';

/** A policy with the normalizers that map env units to its [-1, 1] space (DESIGN.md §3 "Shapes"). */
export interface PolicyBundle {
  policy: FlowPolicy;
  /** Per-frame observation stats (obs_dim). */
  obsNormalizer: MinMaxNormalizer;
  /** Per-step action stats (action_dim). */
  actionNormalizer: MinMaxNormalizer;
}

/** The bundle with its observations clamped to ±`clip` once normalized (`policy.obs_clip`); 0 turns the clamp off. */
export function withObsClip(bundle: PolicyBundle, clip: number): PolicyBundle {
  const obsNormalizer = bundle.obsNormalizer.withClip(clip > 0 ? clip : undefined);
  return obsNormalizer === bundle.obsNormalizer ? bundle : { ...bundle, obsNormalizer };
}
