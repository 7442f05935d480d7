/**
 * Chains for the chain view (DESIGN.md §1 journey 4): M chains of the current policy
 * from one shared x_0 through the training sampler, the all-ODE chain from the same
 * x_0, and each step's mean and std recomputed on the log-prob code path.
 */
import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import { ConfigError, TrainingError } from '../errors';
import { chainStepMeans } from '../flow/chain-means';
import { sampleActions } from '../flow/sampler';
import { createRng, type Rng } from '../random';
import { normalizeStacked } from '../rl/policy-bundle';
import { obsFrameSize } from '../policy/options';
import type { PolicyBundle } from '../policy/policy-bundle';
import { samplerOptionsAt } from '../rl/policy-setup';
import { stackEpisodeObs } from '../rl/episode-obs-stack';
import type { ChainSample, ChainSampleRequest, EpisodeStep } from '../../protocol/trainer-api';
import type { EpisodeStore } from './episode-store';

export const DEFAULT_CHAIN_COUNT = 16;
const MAX_CHAIN_COUNT = 256;

/** The request with defaults filled in; throws ConfigError naming the bad field. */
export function resolveChainRequest(request: ChainSampleRequest, numEnvs: number): { envIndex: number; count: number; seed: number } {
  const envIndex = request.envIndex ?? 0;
  const count = request.count ?? DEFAULT_CHAIN_COUNT;
  const seed = request.seed ?? 0;
  if (!Number.isInteger(envIndex) || envIndex < 0 || envIndex >= numEnvs) {
    throw new ConfigError('envIndex', `envIndex must be an integer in [0, ${numEnvs - 1}] (num_envs is ${numEnvs}), got ${envIndex}`);
  }
  if (!Number.isInteger(count) || count < 1 || count > MAX_CHAIN_COUNT) {
    throw new ConfigError('count', `count must be an integer in [1, ${MAX_CHAIN_COUNT}], got ${count}`);
  }
  if (!Number.isInteger(seed) || seed < 0) throw new ConfigError('seed', `seed must be a non-negative integer, got ${seed}`);
  return { envIndex, count, seed };
}

/**
 * An Rng whose first `fillNormal` writes the same x_0 [E] into every row: the sampler's
 * x_0 draw comes first, so all chains start from one x_0 and differ only by the step noise.
 */
function sharedStartRng(base: Rng, x0: Float32Array): Rng {
  let startDrawn = false;
  return {
    uniform: () => base.uniform(),
    normal: () => base.normal(),
    int: (n) => base.int(n),
    fork: () => base.fork(),
    state: () => base.state(),
    fillNormal(out) {
      if (startDrawn) return base.fillNormal(out);
      startDrawn = true;
      for (let offset = 0; offset < out.length; offset += x0.length) out.set(x0, offset);
      return out;
    },
  };
}

/** Samples the chain set for one raw stacked observation [nObs·obsDim]. */
export async function sampleChainSet(
  bundle: PolicyBundle,
  rawStackedObs: Float32Array,
  config: RunConfig,
  envSteps: number,
  count: number,
  seed: number,
): Promise<Omit<ChainSample, 'envIndex' | 'obsSource' | 'model'>> {
  const { policy } = bundle;
  const { horizon, actionDim } = policy.options;
  const options = samplerOptionsAt(config, envSteps, 'train');
  const odeOptions = { ...samplerOptionsAt(config, envSteps, 'eval'), method: 'ode' as const, mode: 'eval' as const };
  const normalized = normalizeStacked(bundle, rawStackedObs);
  const tiled = new Float32Array(count * normalized.length);
  for (let chainIndex = 0; chainIndex < count; chainIndex++) tiled.set(normalized, chainIndex * normalized.length);
  const rng = createRng(seed);
  const x0 = rng.fillNormal(new Float32Array(horizon * actionDim));
  const state = tf.tensor2d(tiled, [count, normalized.length]);
  const single = tf.tensor2d(normalized, [1, normalized.length]);
  try {
    const sample = await sampleActions(policy, { state }, options, sharedStartRng(rng.fork(), x0));
    const ode = await sampleActions(policy, { state: single }, odeOptions, sharedStartRng(createRng(seed), x0));
    const band = await chainStepMeans(policy, { state }, sample.chains, sample.denoiseInds, options);
    return {
      count, steps: options.steps, horizon, actionDim, nActionSteps: config.policy.n_action_steps,
      chains: sample.chains, odeChain: ode.chains, denoiseInds: sample.denoiseInds, means: band.means, stds: band.stds,
      method: options.method, mode: options.mode, level: options.level,
    };
  } finally {
    state.dispose();
    single.dispose();
  }
}

/**
 * The raw stacked observation [nObs·obsDim] at one step of a stored episode, stacked as the
 * rollout's ObsHistory stacked it: frames policy.n_action_steps apart, the first frame
 * repeated before the start. Throws TrainingError naming the id or step and the valid range.
 */
export function episodeStepObservation(
  store: EpisodeStore,
  episode: EpisodeStep,
  obsDim: number,
  policy: { n_obs_steps: number; n_action_steps: number; history_spacing: 'step' | 'decision' },
): { obs: Float32Array; envIndex: number } {
  const stored = store.get(episode.id);
  if (!stored) {
    const ids = store.list().map((summary) => summary.id);
    const known = ids.length === 0 ? 'the store is empty' : `stored ids run from ${ids[0]} to ${ids[ids.length - 1]}`;
    throw new TrainingError(`episode '${episode.id}' is not in the store (${known}): it was evicted or the run was reset`);
  }
  const { record } = stored;
  if (!Number.isInteger(episode.step) || episode.step < 0 || episode.step > record.length) {
    throw new TrainingError(`step ${episode.step} of episode '${episode.id}' is out of range: steps run from 0 to ${record.length}`);
  }
  const frames = record.length + 1;
  if (!record.obs || record.obs.length !== frames * obsDim) {
    const held = record.obs?.length ?? 0;
    throw new TrainingError(`episode '${episode.id}' holds ${held} observation values; the policy needs ${frames} frames × obs_dim ${obsDim}`);
  }
  // The stack a rollout had at that step: consecutive control steps, or frames a decision apart.
  const frameStride = policy.history_spacing === 'step' ? 1 : policy.n_action_steps;
  return { obs: stackEpisodeObs(record.obs, obsDim, policy.n_obs_steps, episode.step, frameStride), envIndex: record.envIndex };
}

/** The raw stacked observation [nObs·frameSize] a policy took at one stored episode step, and the env that ran it. */
export function episodeStepInput(store: EpisodeStore, episode: EpisodeStep, bundle: PolicyBundle, config: RunConfig): { obs: Float32Array; envIndex: number } {
  const { options } = bundle.policy;
  // A point-cloud frame is [points N×3 | proprioception]: the frame size, not obsDim, is the stride.
  return episodeStepObservation(store, episode, obsFrameSize(options), {
    n_obs_steps: options.nObsSteps, n_action_steps: config.policy.n_action_steps, history_spacing: config.policy.history_spacing,
  });
}

/** Chains conditioned on one step of a stored episode; envIndex is the env that ran it. */
export async function sampleEpisodeChains(
  store: EpisodeStore,
  episode: EpisodeStep,
  bundle: PolicyBundle,
  config: RunConfig,
  envSteps: number,
  count: number,
  seed: number,
): Promise<Omit<ChainSample, 'model'>> {
  const input = episodeStepInput(store, episode, bundle, config);
  const set = await sampleChainSet(bundle, input.obs, config, envSteps, count, seed);
  return { ...set, envIndex: input.envIndex, obsSource: 'episode', episode: { id: episode.id, step: episode.step } };
}

/** Transfer list of a ChainSample's arrays. */
export function chainSampleBuffers(sample: ChainSample): ArrayBuffer[] {
  return [sample.chains, sample.odeChain, sample.denoiseInds, sample.means, sample.stds].map((array) => array.buffer as ArrayBuffer);
}
