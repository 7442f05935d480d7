/** The policy families a run can train (DESIGN.md §16): `policy.kind` picks one. A new family adds one line here. */
import type { RunConfig } from '../config/run-config';
import { ConfigError } from '../errors';
import { DIFFUSION_FAMILY } from '../diffusion/diffusion-family';
import { GAUSSIAN_FAMILY } from '../gaussian/gaussian-family';
import { FLOW_FAMILY } from '../rl/flow-family';
import type { FamilyCheckpoint } from './family-checkpoint';
import type { LoadedPolicy, PolicyFamily } from './policy-family';

const FAMILIES: Record<RunConfig['policy']['kind'], PolicyFamily> = { flow: FLOW_FAMILY, diffusion: DIFFUSION_FAMILY, gaussian: GAUSSIAN_FAMILY };

export function familyOf(kind: RunConfig['policy']['kind']): PolicyFamily {
  const family = FAMILIES[kind];
  if (!family) throw new ConfigError('policy.kind', `policy.kind '${String(kind)}' is not a policy family (${Object.keys(FAMILIES).join(', ')})`);
  return family;
}

/** A decoded checkpoint's live policy, whatever its family, for evaluation, export or demos; the caller disposes it. */
export function loadPolicy(checkpoint: FamilyCheckpoint, config: RunConfig): LoadedPolicy {
  return familyOf(checkpoint.kind).loaded(checkpoint, config);
}
