/**
 * A diffusion policy's deterministic chain as evaluation drives it (DESIGN.md §4, §17): DDIM at η = 0, or DDPM's mean
 * chain. A fine-tuned policy runs as DPPO runs it, deterministic or not: its frozen base net on the steps before the last
 * K', the fine-tuned net on those.
 */
import type { RunConfig } from '../config/run-config';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import type { Rng } from '../random';
import type { EvalActor } from '../rl/evaluate';
import { executedActions, normalizeStacked } from '../rl/policy-bundle';
import { withPolicyObs } from '../rl/policy-input';
import { sampleDiffusion, type DiffusionSample } from './diffusion-sampler';
import { chainLength, diffusionSettings } from './diffusion-settings';

/** The frozen base net of a fine-tuned policy and K', the steps the fine-tuned net runs. */
export interface DiffusionBase {
  net: FlowPolicy;
  ftSteps: number;
}

/**
 * The deterministic chain for normalized stacked observations [B, nObs·frame] (and an image policy's images
 * [B × imageBytes], which the base net reads too); x_T from `rng` (B·H·A normals).
 */
export async function deterministicDiffusion(bundle: PolicyBundle, config: RunConfig, normalizedObs: Float32Array, rng: Rng, base?: DiffusionBase, images?: Uint8Array): Promise<DiffusionSample> {
  const settings = diffusionSettings(config);
  const ftSteps = base ? Math.min(base.ftSteps, chainLength(settings)) : settings.ftSteps;
  return withPolicyObs(bundle.policy.options, normalizedObs, images, (obs) => sampleDiffusion(bundle.policy, base?.net, obs, { ...settings, ftSteps }, rng, { deterministic: true }));
}

/** Raw stacked observations (and their camera images, as the env rendered them) → the executed env actions of the deterministic chain. */
export function diffusionActor(bundle: PolicyBundle, config: RunConfig, base?: DiffusionBase): EvalActor {
  return {
    act: async (stackedObs, _batch, rng, images) => {
      const sample = await deterministicDiffusion(bundle, config, normalizeStacked(bundle, stackedObs), rng, base, images);
      return executedActions(bundle, sample, config.policy.n_action_steps);
    },
  };
}
