/**
 * A diffusion policy's deterministic chain as evaluation drives it (DESIGN.md §4, §17): DDIM at η = 0, or DDPM's mean
 * chain. A fine-tuned policy runs as DPPO runs it, deterministic or not: its frozen base net on the steps before the last
 * K', the fine-tuned net on those.
 */
import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import type { FlowPolicy } from '../policy/flow-policy';
import { obsFrameSize } from '../policy/options';
import type { PolicyBundle } from '../policy/policy-bundle';
import type { Rng } from '../random';
import type { EvalActor } from '../rl/evaluate';
import { executedActions, normalizeStacked } from '../rl/policy-bundle';
import { sampleDiffusion, type DiffusionSample } from './diffusion-sampler';
import { chainLength, diffusionSettings } from './diffusion-settings';

/** The frozen base net of a fine-tuned policy and K', the steps the fine-tuned net runs. */
export interface DiffusionBase {
  net: FlowPolicy;
  ftSteps: number;
}

/** The deterministic chain for normalized stacked observations [B, nObs·frame]; x_T from `rng` (B·H·A normals). */
export async function deterministicDiffusion(bundle: PolicyBundle, config: RunConfig, normalizedObs: Float32Array, rng: Rng, base?: DiffusionBase): Promise<DiffusionSample> {
  const { policy } = bundle;
  const size = policy.options.nObsSteps * obsFrameSize(policy.options);
  const state = tf.tensor2d(normalizedObs, [normalizedObs.length / size, size]);
  try {
    const settings = diffusionSettings(config);
    const ftSteps = base ? Math.min(base.ftSteps, chainLength(settings)) : settings.ftSteps;
    return await sampleDiffusion(policy, base?.net, { state }, { ...settings, ftSteps }, rng, { deterministic: true });
  } finally {
    state.dispose();
  }
}

/** Raw stacked observations → the executed env actions of the deterministic chain. */
export function diffusionActor(bundle: PolicyBundle, config: RunConfig, base?: DiffusionBase): EvalActor {
  return {
    act: async (stackedObs, _batch, rng) => {
      const sample = await deterministicDiffusion(bundle, config, normalizeStacked(bundle, stackedObs), rng, base);
      return executedActions(bundle, sample, config.policy.n_action_steps);
    },
  };
}
