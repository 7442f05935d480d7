/**
 * A diffusion policy's chains for the chain view (DESIGN.md §1 journey 4, §17): M chains from one shared x_T through
 * the rollout sampler (the frozen base net on the first L − K' steps, the fine-tuned net on the last K', every step's
 * std floored at dppo.min_sampling_std), each step's mean and std, and the deterministic chain from the same x_T as
 * evaluation and the ONNX export run it (DDIM at η = 0, or DDPM's mean chain, on the fine-tuned net).
 */
import type { RunConfig } from '../config/run-config';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import { createRng } from '../random';
import { normalizeStacked } from '../rl/policy-bundle';
import { tileRows, withChainObs, type DecisionInput } from '../rl/decision-input';
import type { DiffusionChainSample } from '../../protocol/inspection-api';
import { sampleDiffusion } from './diffusion-sampler';
import { chainLength, chainTimesteps, diffusionSettings } from './diffusion-settings';

/** A diffusion policy as the chain view samples it: the live bundle, and the frozen base net when it has its own. */
export interface DiffusionChainNets {
  bundle: PolicyBundle;
  /** Runs the steps before the last K' in rollouts; absent: the policy runs them (a BC policy is its own base). */
  base?: FlowPolicy;
}

export type DiffusionChainSet = Omit<DiffusionChainSample, 'envIndex' | 'obsSource' | 'episode' | 'model'>;

/**
 * Samples the chain set for one decision (raw stacked observation [nObs·frame], and an image policy's images): `count`
 * chains from the x_T that `seed` draws first (H·A normals), their step noise from the rest of that stream, and the
 * deterministic chain from the same x_T.
 */
export async function sampleDiffusionChainSet(
  nets: DiffusionChainNets,
  input: DecisionInput,
  config: RunConfig,
  count: number,
  seed: number,
): Promise<DiffusionChainSet> {
  const { policy } = nets.bundle;
  const { horizon, actionDim } = policy.options;
  const settings = diffusionSettings(config);
  const length = chainLength(settings);
  const normalized = normalizeStacked(nets.bundle, input.obs);
  const rng = createRng(seed);
  const xT = rng.fillNormal(new Float32Array(horizon * actionDim));
  return withChainObs(policy.options, normalized, input.images, count, async (tiled, single) => {
    const sampled = await sampleDiffusion(policy, nets.base, tiled, settings, rng, { deterministic: false, fullChain: true, xT: tileRows(xT, count) });
    // Deterministic as evaluation runs it: the base net on the steps before the last K', as the sampled chains.
    const deterministic = await sampleDiffusion(policy, nets.base, single, settings, rng, { deterministic: true, fullChain: true, xT });
    const elementSize = horizon * actionDim;
    // One std per step, the same for every chain and element: spread to the [M, L, H, A] layout the band reads.
    const stds = new Float32Array(count * length * elementSize);
    for (let row = 0; row < count * length; row++) stds.fill(sampled.stepStds[row % length], row * elementSize, (row + 1) * elementSize);
    const denoiseInds = new Float32Array(count * length);
    for (let row = 0; row < denoiseInds.length; row++) denoiseInds[row] = sampled.stepStds[row % length] > 0 ? 1 : 0;
    return {
      family: 'diffusion', count, steps: length, horizon, actionDim, nActionSteps: config.policy.n_action_steps,
      chains: sampled.fullChain!, odeChain: deterministic.fullChain!, denoiseInds, means: sampled.means!, stds,
      timesteps: chainTimesteps(settings), denoiseSteps: settings.steps, ddimSteps: settings.ddimSteps, ftSteps: settings.ftSteps,
      minSamplingStd: settings.minSamplingStd,
      ...(policy.options.image ? { cameraImages: 'decision' as const } : {}),
    };
  });
}
