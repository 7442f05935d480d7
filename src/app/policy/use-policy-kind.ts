import { useRunStore } from '../store/run-slice';
import type { PolicyKind } from './flow-only';

/**
 * The family of the policy in use: the accepted config's policy.kind, which a loaded checkpoint
 * fixes and a preset sets. One narrow selector, so a view re-renders only when the family changes.
 */
export function usePolicyKind(): PolicyKind {
  return useRunStore((state) => state.config.policy.kind);
}
