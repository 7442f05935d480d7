import * as tf from '@tensorflow/tfjs';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import type { Demonstrations } from '../envs/expert-rollout';
import { ConfigError, ShapeError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import { createRng } from '../random';
import { buildBcDataset } from '../rl/bc-dataset';
import { advantageWeights, type AdvantageWeightOptions, type AdvantageWeights } from './advantage-weights';
import { collectOfflineRollouts, type OfflineRollouts } from './offline-rollouts';
import { discountedReturns } from './returns-to-go';
import { fitBaseline, type CriticFit } from './fit-baseline';
import type { CriticOptions } from './value-critic';
import { trainWeightedBc, type WeightedBcOptions } from './weighted-bc';

/** Everything stage 2 does after loading (DESIGN.md §12 "Stage 2"). */
export interface OfflineStageOptions {
  /** Episodes of the stage-1 policy to roll out (0 = demos only); episode e resets with rolloutSeed + e. */
  rollouts: number;
  rolloutSeed: number;
  critic: Omit<CriticOptions, 'seed'>;
  /** Cross-fitting folds of the critic (1 = one critic fit on every sample); see fitBaseline. */
  criticFolds: number;
  weighting: AdvantageWeightOptions;
  bc: Omit<WeightedBcOptions, 'seed' | 'onProgress' | 'afterStep'>;
  seed: number;
}

export interface OfflineStageHooks {
  /** Messages about each phase (rollouts, critic, weights), one line each. */
  onPhase?: (line: string) => void;
  onProgress?: WeightedBcOptions['onProgress'];
  /** Awaited after every weighted BC step (see PretrainOptions.afterStep). */
  afterStep?: WeightedBcOptions['afterStep'];
}

export interface OfflineStageReport {
  demoSamples: number;
  rolloutSamples: number;
  /** The stochastic rollouts' episodes. */
  rollouts: { episodes: number; successRate: number; meanReturn: number; meanLength: number };
  critic: CriticFit;
  weights: Omit<AdvantageWeights, 'weights' | 'clipped'> & { demoMean: number; rolloutMean: number };
  finalLoss: number;
}

/** Rows encoded at once when computing critic inputs. */
const ENCODE_BATCH = 1024;

/** The policy's encoder features [S, F] of normalized stacked observations [S, nObs·obsDim]: the critic's input. */
export async function encodeObservations(policy: FlowPolicy, obs: Float32Array, size: number): Promise<Float32Array> {
  const obsSize = obs.length / size;
  const parts: Float32Array[] = [];
  for (let first = 0; first < size; first += ENCODE_BATCH) {
    const rows = Math.min(ENCODE_BATCH, size - first);
    const features = tf.tidy(() => policy.encode({ state: tf.tensor2d(obs.subarray(first * obsSize, (first + rows) * obsSize), [rows, obsSize]) }));
    try {
      parts.push((await features.data()) as Float32Array);
    } finally {
      features.dispose();
    }
  }
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const concat = (first: Float32Array, second: Float32Array): Float32Array => {
  const out = new Float32Array(first.length + second.length);
  out.set(first);
  out.set(second, first.length);
  return out;
};

const meanOf = (values: ArrayLike<number>, from: number, to: number): number => {
  let sum = 0;
  for (let index = from; index < to; index++) sum += values[index];
  return to > from ? sum / (to - from) : NaN;
};

/** Success rate, mean return and length of the rollouts' episodes (NaN for none). */
function summarizeEpisodes(episodes: OfflineRollouts['episodes']): OfflineStageReport['rollouts'] {
  const count = episodes.length;
  const mean = (pick: (episode: OfflineRollouts['episodes'][number]) => number) => (count > 0 ? episodes.reduce((sum, episode) => sum + pick(episode), 0) / count : NaN);
  return { episodes: count, successRate: mean((episode) => (episode.success ? 1 : 0)), meanReturn: mean((episode) => episode.episodeReturn), meanLength: mean((episode) => episode.length) };
}

/** Episode index [S] of every sample of sample sets laid one after another, each with its episodeStarts [E + 1]. */
function episodeOfSamples(episodeStartsOfSets: readonly Int32Array[]): Int32Array {
  const size = episodeStartsOfSets.reduce((sum, starts) => sum + starts[starts.length - 1], 0);
  const episodeOf = new Int32Array(size);
  let sampleOffset = 0;
  let episodeOffset = 0;
  for (const starts of episodeStartsOfSets) {
    for (let episodeIndex = 0; episodeIndex + 1 < starts.length; episodeIndex++) {
      episodeOf.fill(episodeOffset + episodeIndex, sampleOffset + starts[episodeIndex], sampleOffset + starts[episodeIndex + 1]);
    }
    sampleOffset += starts[starts.length - 1];
    episodeOffset += starts.length - 1;
  }
  return episodeOf;
}

/**
 * Stage 2 on a loaded stage-1 bundle, in place: (1) roll out the policy with PPO's stochastic
 * sampler; (2) fit a value MLP V(s) on the start policy's encoder features to the Monte-Carlo
 * returns-to-go of every demo step (all demo episodes, failures too) and every rollout decision;
 * (3) A = G − V, weights from `advantageWeights`; (4) weighted flow-matching BC on demos ∪ rollouts.
 * Observations and actions use the bundle's normalizers, never refit. `openEnv(n)` gives n envs
 * of the config's task; this opens and disposes them.
 */
export async function runOfflineStage(
  bundle: PolicyBundle,
  demos: Demonstrations,
  openEnv: (numEnvs: number) => Promise<BatchEnv>,
  config: RunConfig,
  options: OfflineStageOptions,
  hooks: OfflineStageHooks = {},
): Promise<OfflineStageReport> {
  const { policy } = bundle;
  if (policy.options.image) throw new ConfigError('env.obs_type', `stage 2 (advantage-weighted BC) does not take camera images yet (env.obs_type=${config.env.obs_type}); fine-tune the stage-1 policy with npm run train instead`);
  const gamma = config.advantages.gamma;
  const numPoints = policy.options.obsEncoder === 'pointcloud' ? policy.options.numPoints : undefined;
  const demoSet = buildBcDataset(demos, policy.options.nObsSteps, policy.options.horizon, {
    includeFailures: true, numPoints, normalizers: { obs: bundle.obsNormalizer, action: bundle.actionNormalizer },
  });
  if (demoSet.size !== demos.rewards.length) throw new ShapeError('demos', `demos hold ${demos.rewards.length} rewards for ${demoSet.size} steps`);
  const demoReturns = discountedReturns(demos.rewards, new Uint8Array(demos.rewards.length).fill(1), demos.episodeStarts, gamma);

  let rollouts: OfflineRollouts = { size: 0, obs: new Float32Array(0), actions: new Float32Array(0), returns: new Float32Array(0), episodeStarts: Int32Array.from([0]), episodes: [] };
  if (options.rollouts > 0) {
    const env = await openEnv(options.rollouts);
    try {
      const seeds = Array.from({ length: options.rollouts }, (_, episodeIndex) => options.rolloutSeed + episodeIndex);
      rollouts = await collectOfflineRollouts(bundle, env, config, seeds, createRng(options.seed));
    } finally {
      await env.dispose();
    }
  }
  const rolloutSummary = summarizeEpisodes(rollouts.episodes);
  hooks.onPhase?.(rolloutSummary.episodes === 0 ? 'rollouts: none, the demos alone (rollouts=0)'
    : `rollouts: ${rolloutSummary.episodes} episodes, ${rollouts.size} decisions, success ${rolloutSummary.successRate.toFixed(3)}, return ${rolloutSummary.meanReturn.toFixed(2)}`);

  const size = demoSet.size + rollouts.size;
  const obs = concat(demoSet.obs, rollouts.obs);
  const returns = concat(demoReturns, rollouts.returns);
  const features = await encodeObservations(policy, obs, size);
  const episodeOf = episodeOfSamples([demos.episodeStarts, rollouts.episodeStarts]);
  const { values, fit } = await fitBaseline(features, returns, episodeOf, options.criticFolds, { ...options.critic, seed: options.seed + 1 });
  const advantages = returns.map((value, sampleIndex) => value - values[sampleIndex]);
  const scope = options.criticFolds > 1 ? `held out over ${options.criticFolds} folds` : 'in sample';
  hooks.onPhase?.(`critic: ${options.critic.steps} steps on ${size} samples, mse ${fit.mse.toFixed(4)}, explained variance ${fit.explainedVariance.toFixed(3)} (${scope})`);

  const { weights, clipped, ...weightStats } = advantageWeights(advantages, options.weighting);
  const demoMean = meanOf(weights, 0, demoSet.size);
  const rolloutMean = meanOf(weights, demoSet.size, size);
  hooks.onPhase?.(`weights: beta ${options.weighting.beta}, w_max ${options.weighting.maxWeight}, advantage std ${weightStats.advantageStd.toFixed(4)}, `
    + `max ${weightStats.weightMax.toFixed(3)}, clipped ${weightStats.clipFraction.toFixed(3)}, effective samples ${weightStats.effectiveFraction.toFixed(3)}, `
    + `mean on demos ${demoMean.toFixed(3)}${rollouts.size > 0 ? `, on rollouts ${rolloutMean.toFixed(3)}` : ''}`);

  const { finalLoss } = await trainWeightedBc(policy, { size, obs, actions: concat(demoSet.actions, rollouts.actions), weights, clipped }, {
    ...options.bc, seed: options.seed + 2, onProgress: hooks.onProgress, afterStep: hooks.afterStep,
  });
  return {
    demoSamples: demoSet.size, rolloutSamples: rollouts.size, rollouts: rolloutSummary, critic: fit, weights: { ...weightStats, demoMean, rolloutMean }, finalLoss,
  };
}
