/**
 * The chain view of a diffusion policy (DESIGN.md §1 journey 4, §17): chains from one x_T on the rollout sampler, each
 * step's std against a float64 reference of DPPO's schedule and floor, the frozen base net on the early steps, and the
 * deterministic chain equal to what evaluation acts on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../cli/node-backend';
import type { RunConfig } from '../config/run-config';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import { createRng } from '../random';
import { copyPolicy } from '../rl/bc-reference';
import { freshBundle, tinyConfig } from '../rl/fixtures/test-support';
import { normalizeStacked } from '../rl/policy-bundle';
import { ddpmSchedule } from './ddpm-schedule';
import { deterministicDiffusion } from './diffusion-actor';
import { sampleDiffusionChainSet } from './diffusion-chain-view';

const OBS_DIM = 5;
const ACTION_DIM = 3;
const HORIZON = 4;
const ELEMENT = HORIZON * ACTION_DIM;

/** T = 6 DDPM steps, the last 3 fine-tuned, DPPO's floor 0.1 unless overridden. */
function diffusionConfig(extra: string[] = []): RunConfig {
  return tinyConfig(['policy.kind=diffusion', 'policy.denoise_steps=6', 'dppo.ft_denoising_steps=3', 'dppo.min_sampling_std=0.1', ...extra]);
}

/** Element `index` [H·A] of chain `chain` in [M, L + 1, H, A] (or of the one chain in [L + 1, H, A]). */
function element(chains: Float32Array, length: number, chain: number, index: number): Float32Array {
  const offset = (chain * (length + 1) + index) * ELEMENT;
  return chains.slice(offset, offset + ELEMENT);
}

function stepMean(means: Float32Array, length: number, chain: number, index: number): Float32Array {
  const offset = (chain * length + index) * ELEMENT;
  return means.slice(offset, offset + ELEMENT);
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, digits = 5): void {
  expect(actual.length).toBe(expected.length);
  for (let index = 0; index < actual.length; index++) expect(actual[index]).toBeCloseTo(expected[index], digits);
}

/** A raw stacked observation [nObs·obsDim] in the normalizer's range [−2, 2]. */
const randomObs = (seed: number) => {
  const rng = createRng(seed);
  return Float32Array.from({ length: bundle.policy.options.nObsSteps * OBS_DIM }, () => 4 * rng.uniform() - 2);
};

let bundle: PolicyBundle;
let otherBase: FlowPolicy;
beforeAll(async () => {
  await useNodeBackend('wasm');
  bundle = freshBundle(diffusionConfig(), OBS_DIM, ACTION_DIM, 11);
  // A base net with other weights: as after fine-tuning, when the policy has moved away from it.
  otherBase = copyPolicy(freshBundle(diffusionConfig(), OBS_DIM, ACTION_DIM, 12).policy);
});
afterAll(() => {
  bundle.policy.dispose();
  otherBase.dispose();
});

describe('sampleDiffusionChainSet', () => {
  it('draws M chains and the deterministic chain from one x_T; the red chain ends at the action evaluation takes', async () => {
    const config = diffusionConfig();
    const seed = Math.floor(Math.random() * 2 ** 31);
    const obs = randomObs(seed);
    const set = await sampleDiffusionChainSet({ bundle }, { obs }, config, 5, seed);
    expect(set).toMatchObject({ family: 'diffusion', count: 5, steps: 6, horizon: HORIZON, actionDim: ACTION_DIM, nActionSteps: 2, denoiseSteps: 6, ddimSteps: 0, ftSteps: 3, minSamplingStd: 0.1 });
    // DDPM: the timesteps T − 1 … 0, noisiest first.
    expect(set.timesteps).toEqual([5, 4, 3, 2, 1, 0]);
    expect(set.chains.length).toBe(5 * 7 * ELEMENT);
    expect(set.odeChain.length).toBe(7 * ELEMENT);
    expect(set.means.length).toBe(5 * 6 * ELEMENT);
    expect(set.stds.length).toBe(5 * 6 * ELEMENT);
    // x_T is the seed's first H·A normals, shared by every chain and the deterministic chain.
    const xT = createRng(seed).fillNormal(new Float32Array(ELEMENT));
    for (let chain = 0; chain < 5; chain++) expect(element(set.chains, 6, chain, 0)).toEqual(xT);
    expect(element(set.odeChain, 6, 0, 0)).toEqual(xT);
    // The step noise differs between chains, so their paths do (an untrained net's actions may all clip at ±1).
    expect(element(set.chains, 6, 0, 5)).not.toEqual(element(set.chains, 6, 1, 5));
    // Evaluation's deterministic chain draws x_T from the same stream first: the same action, to float32 rounding.
    const evaluated = await deterministicDiffusion(bundle, config, normalizeStacked(bundle, obs), createRng(seed));
    expectClose(element(set.odeChain, 6, 0, 6), evaluated.actions, 6);
    // The same seed repeats exactly; another seed draws another x_T.
    const again = await sampleDiffusionChainSet({ bundle }, { obs }, config, 5, seed);
    expect(again.chains).toEqual(set.chains);
    expect(again.odeChain).toEqual(set.odeChain);
    const other = await sampleDiffusionChainSet({ bundle }, { obs }, config, 5, seed + 1);
    expect(element(other.chains, 6, 0, 0)).not.toEqual(xT);
  });

  it('applies max(DDPM std, dppo.min_sampling_std) at every step: x_{k+1} − μ_k stays within randn_clip stds', async () => {
    const schedule = ddpmSchedule(6);
    for (const floor of [0.1, 0.35]) {
      const config = diffusionConfig([`dppo.min_sampling_std=${floor}`, 'dppo.randn_clip=3']);
      const set = await sampleDiffusionChainSet({ bundle }, { obs: randomObs(4) }, config, 4, 9);
      for (const [index, t] of set.timesteps.entries()) {
        // Float64 reference: √β̃_t (its log floored at 1e−20), then the sampling floor; t = 5 gives √β̃_5 ≈ 0.48.
        const expected = Math.max(Math.exp(0.5 * schedule.logvarClipped[t]), floor);
        for (let chain = 0; chain < 4; chain++) {
          const stds = set.stds.subarray((chain * 6 + index) * ELEMENT, (chain * 6 + index + 1) * ELEMENT);
          for (const std of stds) expect(std).toBeCloseTo(expected, 6);
          expect(set.denoiseInds[chain * 6 + index]).toBe(1);
          // The last step's sample is clipped to ±1 as well, so only the earlier ones are checked against the band.
          if (index === 5) continue;
          const mean = stepMean(set.means, 6, chain, index);
          const next = element(set.chains, 6, chain, index + 1);
          for (let entry = 0; entry < ELEMENT; entry++) expect(Math.abs(next[entry] - mean[entry])).toBeLessThanOrEqual(3 * expected + 1e-5);
        }
      }
      expect(set.minSamplingStd).toBe(floor);
    }
  });

  it('runs the first L − K\' steps on the frozen base net, the deterministic chain too (as evaluation and DPPO run it)', async () => {
    const config = diffusionConfig();
    const obs = randomObs(21);
    const withBase = await sampleDiffusionChainSet({ bundle, base: otherBase }, { obs }, config, 3, 5);
    const own = await sampleDiffusionChainSet({ bundle }, { obs }, config, 3, 5);
    // Step 0 reads x_T in both: its mean is the base net's with a base, the policy's without.
    const baseAlone = await sampleDiffusionChainSet({ bundle: { ...bundle, policy: otherBase } }, { obs }, config, 3, 5);
    for (let chain = 0; chain < 3; chain++) {
      expectClose(stepMean(withBase.means, 6, chain, 0), stepMean(baseAlone.means, 6, chain, 0));
      expect(stepMean(withBase.means, 6, chain, 0)).not.toEqual(stepMean(own.means, 6, chain, 0));
    }
    // The deterministic chain is evaluation's: the base net on the early steps as well, so it differs from the policy alone.
    expect(withBase.odeChain).not.toEqual(own.odeChain);
    expect(Array.from(withBase.odeChain.slice(ELEMENT, 2 * ELEMENT))).toEqual(Array.from(baseAlone.odeChain.slice(ELEMENT, 2 * ELEMENT)));
    // With every step fine-tuned (K' = L) the base runs none of them.
    const allTuned = diffusionConfig(['dppo.ft_denoising_steps=6']);
    expect((await sampleDiffusionChainSet({ bundle, base: otherBase }, { obs }, allTuned, 3, 5)).chains).toEqual((await sampleDiffusionChainSet({ bundle }, { obs }, allTuned, 3, 5)).chains);
  });

  it('follows the DDIM grid when policy.ddim_steps > 0: S steps, t = i·T/S from the largest down', async () => {
    const config = diffusionConfig(['policy.ddim_steps=3', 'dppo.ft_denoising_steps=2']);
    const set = await sampleDiffusionChainSet({ bundle }, { obs: randomObs(2) }, config, 2, 1);
    expect(set).toMatchObject({ steps: 3, ddimSteps: 3, denoiseSteps: 6, ftSteps: 2 });
    expect(set.timesteps).toEqual([4, 2, 0]);
    expect(set.chains.length).toBe(2 * 4 * ELEMENT);
    expect(set.odeChain.length).toBe(4 * ELEMENT);
    expect(set.stds.every((std) => std >= 0.1)).toBe(true);
  });
});
