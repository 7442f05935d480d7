/**
 * Chains for the chain view (DESIGN.md §1 journey 4): M chains of the current policy
 * from one shared start through the training sampler, the deterministic chain from the
 * same start, and each step's mean and std. A flow policy's come from the flow sampler
 * (the all-ODE chain in red, step means recomputed on the log-prob code path); a
 * diffusion policy's from its own sampler (core/diffusion/diffusion-chain-view). An image
 * policy is conditioned on the decision's camera images as well (DESIGN.md §19).
 */
import type { RunConfig } from '../config/run-config';
import { sampleDiffusionChainSet } from '../diffusion/diffusion-chain-view';
import type { DiffusionLearner } from '../diffusion/diffusion-family';
import { ConfigError, TrainingError } from '../errors';
import { chainStepMeans } from '../flow/chain-means';
import { sampleActions } from '../flow/sampler';
import { createRng, type Rng } from '../random';
import { normalizeStacked } from '../rl/policy-bundle';
import { obsFrameSize } from '../policy/options';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import { samplerOptionsAt } from '../rl/policy-setup';
import type { FamilyLearner } from '../run/policy-family';
import { stackEpisodeObs } from '../rl/episode-obs-stack';
import type { ChainSample, ChainSampleRequest, DiffusionChainSample, EpisodeStep, FlowChainSample } from '../../protocol/trainer-api';
import type { ReplayScenes } from '../render/replay-scenes';
import { renderRecordedImages } from '../render/recorded-images';
import type { EpisodeStore } from './episode-store';
import { withChainObs, type DecisionInput } from '../rl/decision-input';

export type { DecisionInput };

export const DEFAULT_CHAIN_COUNT = 16;
const MAX_CHAIN_COUNT = 256;

/** A policy with a denoising chain, as the chain views sample it. */
export type ChainPolicy =
  | { kind: 'flow'; bundle: PolicyBundle }
  /** `base`: the frozen base net that runs the steps before the last K' in rollouts (absent: the policy runs them). */
  | { kind: 'diffusion'; bundle: PolicyBundle; base?: FlowPolicy };

/** A chain set before the host says where its observation and weights came from. */
export type ChainSet = Omit<FlowChainSample, 'envIndex' | 'obsSource' | 'episode' | 'model'> | Omit<DiffusionChainSample, 'envIndex' | 'obsSource' | 'episode' | 'model'>;

/** The one sentence for a family without a chain. */
export function noChainError(kind: string): TrainingError {
  return new TrainingError(`a ${kind} policy has no denoising chain to sample or inspect`);
}

/** A run's policy as the chain views sample it: a flow policy, or a diffusion policy with its frozen base net. */
export function learnerChainPolicy(learner: FamilyLearner): ChainPolicy {
  if (learner.kind === 'diffusion') {
    const diffusion = learner as DiffusionLearner;
    return { kind: 'diffusion', bundle: diffusion.bundle, base: diffusion.base };
  }
  const bundle = (learner as FamilyLearner & { bundle?: PolicyBundle }).bundle;
  if (learner.kind !== 'flow' || !bundle) throw noChainError(learner.kind);
  return { kind: 'flow', bundle };
}

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

/** Samples a flow policy's chain set for one decision: its raw stacked observation [nObs·obsDim] (and images, for an image policy). */
export async function sampleFlowChainSet(
  bundle: PolicyBundle,
  input: DecisionInput,
  config: RunConfig,
  envSteps: number,
  count: number,
  seed: number,
): Promise<Omit<FlowChainSample, 'envIndex' | 'obsSource' | 'episode' | 'model'>> {
  const { policy } = bundle;
  const { horizon, actionDim } = policy.options;
  const options = samplerOptionsAt(config, envSteps, 'train');
  const odeOptions = { ...samplerOptionsAt(config, envSteps, 'eval'), method: 'ode' as const, mode: 'eval' as const };
  const normalized = normalizeStacked(bundle, input.obs);
  const rng = createRng(seed);
  const x0 = rng.fillNormal(new Float32Array(horizon * actionDim));
  return withChainObs(policy.options, normalized, input.images, count, async (tiled, single) => {
    const sample = await sampleActions(policy, tiled, options, sharedStartRng(rng.fork(), x0));
    const ode = await sampleActions(policy, single, odeOptions, sharedStartRng(createRng(seed), x0));
    const band = await chainStepMeans(policy, tiled, sample.chains, sample.denoiseInds, options);
    return {
      family: 'flow', count, steps: options.steps, horizon, actionDim, nActionSteps: config.policy.n_action_steps,
      chains: sample.chains, odeChain: ode.chains, denoiseInds: sample.denoiseInds, means: band.means, stds: band.stds,
      method: options.method, mode: options.mode, level: options.level,
      ...(policy.options.image ? { cameraImages: 'decision' as const } : {}),
    };
  });
}

/**
 * Samples the chain set of either family for one decision (raw stacked observation [nObs·frame], and
 * an image policy's images); `envSteps` places a flow policy on its noise schedule (a diffusion
 * policy's std floor has none).
 */
export function sampleChainSet(
  policy: ChainPolicy,
  input: DecisionInput,
  config: RunConfig,
  envSteps: number,
  count: number,
  seed: number,
): Promise<ChainSet> {
  if (policy.kind === 'diffusion') return sampleDiffusionChainSet(policy, input, config, count, seed);
  return sampleFlowChainSet(policy.bundle, input, config, envSteps, count, seed);
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

/**
 * What a policy took at one stored episode step: the raw stacked observation [nObs·frameSize], the env
 * that ran it, and for an image policy the camera images of that frame, ray-cast again from its
 * recorded pose in `scenes` (episodes keep poses, not pixels; the Inspect camera renders them the same way).
 */
export function episodeStepInput(
  store: EpisodeStore,
  episode: EpisodeStep,
  bundle: PolicyBundle,
  config: RunConfig,
  scenes?: Pick<ReplayScenes, 'scene'>,
): DecisionInput & { envIndex: number } {
  const { options } = bundle.policy;
  // A point-cloud frame is [points N×3 | proprioception]: the frame size, not obsDim, is the stride.
  const input = episodeStepObservation(store, episode, obsFrameSize(options), {
    n_obs_steps: options.nObsSteps, n_action_steps: config.policy.n_action_steps, history_spacing: config.policy.history_spacing,
  });
  if (!options.image) return input;
  if (!scenes) throw new TrainingError(`the policy reads camera images, and this view has no scene to render episode '${episode.id}' from`);
  const stored = store.get(episode.id)!;
  return { ...input, images: renderRecordedImages(scenes.scene(stored.summary.task), stored.record, episode.step, options.image, stored.summary.task) };
}

/** Chains conditioned on one step of a stored episode; envIndex is the env that ran it. `scenes` renders an image policy's images. */
export async function sampleEpisodeChains(
  store: EpisodeStore,
  episode: EpisodeStep,
  policy: ChainPolicy,
  config: RunConfig,
  envSteps: number,
  count: number,
  seed: number,
  model: ChainSample['model'],
  scenes?: Pick<ReplayScenes, 'scene'>,
): Promise<ChainSample> {
  const { envIndex, ...input } = episodeStepInput(store, episode, policy.bundle, config, scenes);
  const set = await sampleChainSet(policy, input, config, envSteps, count, seed);
  return {
    ...set, envIndex, obsSource: 'episode', episode: { id: episode.id, step: episode.step }, model,
    ...(input.images ? { cameraImages: 'recorded-pose' as const } : {}),
  };
}

/** Transfer list of a ChainSample's arrays. */
export function chainSampleBuffers(sample: ChainSample): ArrayBuffer[] {
  return [sample.chains, sample.odeChain, sample.denoiseInds, sample.means, sample.stds].map((array) => array.buffer as ArrayBuffer);
}
