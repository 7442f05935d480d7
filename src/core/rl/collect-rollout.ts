import type { RunConfig } from '../config/run-config';
import type { EpisodeRecord } from '../envs/task-env';
import type { LogProbSlice } from '../flow/logprob-reduce';
import type { SamplerOptions } from '../flow/sampling-options';
import type { Rng } from '../random';
import type { BatchEnv } from '../envs/batch-env';
import type { ObsHistory } from './obs-history';
import { executedActions, normalizeStacked } from './policy-bundle';
import type { PolicyBundle } from '../policy/policy-bundle';
import type { PhaseTimes } from './phase-times';
import { RolloutBuffer, type RolloutShape } from './rollout-buffer';
import type { SampleResult } from '../flow/sampler';
import { sampleDecision, sampleDecisionFromFeatures, valuesForObs } from './rollout-policy';
import { encoderFrozen } from './policy-setup';
import { obsFeatureDim } from '../policy/options';
import { imagePixelBytes } from '../policy/image-encoder-options';

/** Env-side state carried from one rollout to the next. */
export interface RolloutCursor {
  history: ObsHistory;
}

export interface RolloutStats {
  episodes: EpisodeRecord[];
  /** Env steps run in this rollout (Σ τ). */
  envSteps: number;
  /** Mean std over the stochastic steps actually taken. */
  meanNoiseStd: number;
  rolloutSeconds: number;
}

/** The unit axes of one decision's reduced log-prob (DESIGN.md §3 "Log-prob"): [Ta, Ae] token, [Ta] action, [] chunk and mean. */
export function logProbUnitShape(slice: LogProbSlice): number[] {
  if (slice.logprobType === 'token') return [slice.nActionSteps, slice.envActionDim];
  if (slice.logprobType === 'action') return [slice.nActionSteps];
  return [];
}

/** Log-prob units per decision for a slice. */
export function logProbUnits(slice: LogProbSlice): number {
  return logProbUnitShape(slice).reduce((product, size) => product * size, 1);
}

function meanOfNonZero(values: Float32Array): { sum: number; count: number } {
  let sum = 0;
  let count = 0;
  for (const value of values) {
    if (value > 0) {
      sum += value;
      count++;
    }
  }
  return { sum, count };
}

/** One rollout decision of any chain policy, as the buffer stores it. */
export interface RolloutDecision {
  /** [B, obsSize]: what the buffer stores for the observation (it, or a frozen encoder's features). */
  stored: Float32Array;
  /** [B × imageBytes]: the camera images the buffer stores beside it (an image policy whose encoder trains). */
  storedImages?: Uint8Array;
  /** [B, H, A] normalized actions, for executedActions. */
  sample: Pick<SampleResult, 'batch' | 'horizon' | 'actionDim' | 'actions'>;
  chains: Float32Array;
  denoiseInds: Float32Array;
  logProbs: Float32Array;
  values: Float32Array;
  /** Stds applied, 0 where a step was not stochastic (their nonzero mean is the rollout's noise std). */
  stds: Float32Array;
}

/** How a policy family acts in a chain rollout: the buffer's sizes, one decision, and bootstrap values. */
export interface RolloutDecider {
  shape: Pick<RolloutShape, 'obsSize' | 'chainSize' | 'denoiseSteps' | 'logProbUnits'> & Partial<Pick<RolloutShape, 'imageBytes'>>;
  /** One decision for normalized stacked observations [B, obsSize] and, for image observations, their images [B × imageBytes]. */
  decide(normalizedObs: Float32Array, images?: Uint8Array): Promise<RolloutDecision>;
  values(normalizedObs: Float32Array, images?: Uint8Array): Promise<Float32Array>;
}

/**
 * The flow policy's decider: chains from the sampler, a frozen encoder's features stored in place of the observation
 * (and of its images); an image policy whose encoder trains stores each decision's images once, beside the observation.
 */
export function flowDecider(bundle: PolicyBundle, config: RunConfig, history: ObsHistory, sampler: SamplerOptions, slice: LogProbSlice, rng: Rng): RolloutDecider {
  const { policy } = bundle;
  const { horizon, actionDim } = policy.options;
  // A frozen encoder's features are stored in place of the observation (DESIGN.md §3 "Obs encoders").
  const frozen = encoderFrozen(config);
  const storesImages = !frozen && policy.options.image !== undefined;
  const valueSampler: SamplerOptions = { ...sampler, method: 'ode', mode: 'eval' };
  const decision = (sample: SampleResult, stored: Float32Array, storedImages?: Uint8Array): RolloutDecision => ({
    stored, ...(storedImages ? { storedImages } : {}), sample, chains: sample.chains, denoiseInds: sample.denoiseInds, logProbs: sample.logProbs, values: sample.values, stds: sample.stds,
  });
  return {
    shape: {
      obsSize: frozen ? obsFeatureDim(policy.options) : history.stackedDim,
      chainSize: (sampler.steps + 1) * horizon * actionDim,
      denoiseSteps: sampler.steps,
      logProbUnits: logProbUnits(slice),
      imageBytes: storesImages ? imagePixelBytes(policy.options.image!) : 0,
    },
    decide: async (obs, images) => {
      if (!frozen) return decision(await sampleDecision(bundle, obs, sampler, slice, rng, images), obs, storesImages ? images : undefined);
      const decided = await sampleDecisionFromFeatures(bundle, obs, sampler, slice, rng, images);
      return decision(decided.sample, decided.features);
    },
    values: (obs, images) => valuesForObs(bundle, obs, valueSampler, rng, images),
  };
}

/**
 * Runs `env.steps_per_iteration` SMDP decisions in every env (DESIGN.md §4) with the flow policy's decider.
 */
export async function collectRollout(
  bundle: PolicyBundle,
  env: BatchEnv,
  cursor: RolloutCursor,
  config: RunConfig,
  sampler: SamplerOptions,
  slice: LogProbSlice,
  rng: Rng,
  phases: PhaseTimes,
): Promise<{ buffer: RolloutBuffer; stats: RolloutStats }> {
  return collectDecisions(bundle, env, cursor, config, flowDecider(bundle, config, cursor.history, sampler, slice, rng), phases);
}

/**
 * Runs `env.steps_per_iteration` SMDP decisions in every env (DESIGN.md §4). One policy
 * call is one decision; its first `n_action_steps` actions run in the env. Truncated
 * chunks store V(final_obs); with auto_reset off, decisions after an env's first done are masked.
 */
export async function collectDecisions(
  bundle: PolicyBundle,
  env: BatchEnv,
  cursor: RolloutCursor,
  config: RunConfig,
  decider: RolloutDecider,
  phases: PhaseTimes,
): Promise<{ buffer: RolloutBuffer; stats: RolloutStats }> {
  const { clock } = phases;
  const started = clock();
  const numEnvs = env.numEnvs;
  const numSteps = config.env.steps_per_iteration;
  const nActionSteps = config.policy.n_action_steps;
  const gamma = config.advantages.gamma;
  const buffer = new RolloutBuffer({ numSteps, numEnvs, ...decider.shape });
  const alive = new Uint8Array(numEnvs).fill(1);
  let envSteps = 0;
  let noiseSum = 0;
  let noiseCount = 0;
  for (let step = 0; step < numSteps; step++) {
    const obs = normalizeStacked(bundle, cursor.history.stacked());
    // Camera images go to the policy as they are: the normalizer sees the float row only.
    const images = cursor.history.images();
    const decision = await phases.time('policy', () => decider.decide(obs, images));
    buffer.writeDecision(step, {
      obs: decision.stored, images: decision.storedImages, chains: decision.chains, denoiseInds: decision.denoiseInds, oldLogProbs: decision.logProbs, values: decision.values,
    });
    const noise = meanOfNonZero(decision.stds);
    noiseSum += noise.sum;
    noiseCount += noise.count;

    const actions = executedActions(bundle, decision.sample, nActionSteps);
    const result = await phases.time('env', () => env.stepChunk(actions, nActionSteps, gamma));
    const done = new Uint8Array(numEnvs);
    let anyTruncated = false;
    for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
      const entry = step * numEnvs + envIndex;
      buffer.mask[entry] = alive[envIndex];
      if (alive[envIndex]) envSteps += result.steps[envIndex];
      buffer.rewards[entry] = result.reward[envIndex];
      buffer.chunkSteps[entry] = result.steps[envIndex];
      buffer.terminated[entry] = result.terminated[envIndex];
      buffer.truncated[entry] = result.terminated[envIndex] ? 0 : result.truncated[envIndex];
      buffer.success[entry] = result.success[envIndex];
      done[envIndex] = result.terminated[envIndex] || result.truncated[envIndex] ? 1 : 0;
      if (buffer.truncated[entry] && alive[envIndex]) anyTruncated = true;
    }
    const final = cursor.history.advanceWithImages(result, nActionSteps, config.policy.history_spacing);
    if (anyTruncated) {
      const finalObs = normalizeStacked(bundle, final.stacks);
      const finalValues = await phases.time('value', () => decider.values(finalObs, final.images));
      for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
        const entry = step * numEnvs + envIndex;
        if (buffer.truncated[entry]) buffer.finalValues[entry] = finalValues[envIndex];
      }
    }
    if (!config.env.auto_reset) for (let envIndex = 0; envIndex < numEnvs; envIndex++) if (done[envIndex]) alive[envIndex] = 0;
  }
  const lastObs = normalizeStacked(bundle, cursor.history.stacked());
  const lastImages = cursor.history.images();
  buffer.bootstrapValues.set(await phases.time('value', () => decider.values(lastObs, lastImages)));
  return {
    buffer,
    stats: {
      episodes: await env.drainEpisodes(),
      envSteps,
      meanNoiseStd: noiseCount > 0 ? noiseSum / noiseCount : 0,
      rolloutSeconds: (clock() - started) / 1000,
    },
  };
}
