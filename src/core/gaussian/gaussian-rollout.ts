/**
 * A Gaussian PPO rollout (CleanRL's ppo_continuous_action, DESIGN.md §14 "Gaussian PPO"):
 * every env takes env.steps_per_iteration control steps; each action is a = μ + σ·ε in env
 * units (the env clips it to its range; the log-prob is that of the unclipped a). Observations
 * pass through the running normalization, rewards through the return scaling. A truncated
 * episode stores V(final_obs) to bootstrap from, so truncation is not treated as termination.
 */
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import type { EpisodeRecord } from '../envs/task-env';
import type { RolloutSignals } from '../rl/advantages';
import type { ObsHistory } from '../rl/obs-history';
import type { PhaseTimes } from '../rl/phase-times';
import type { Rng } from '../random';
import { gaussianForward, gaussianValues, type GaussianBundle } from './gaussian-bundle';
import type { RewardScaler } from './reward-scaler';

const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** Time-major storage of one rollout: entry (t, env) at t·N + env. */
export class GaussianRolloutBuffer {
  readonly obs: Float32Array;
  readonly actions: Float32Array;
  readonly logProbs: Float32Array;
  readonly values: Float32Array;
  readonly rewards: Float32Array;
  readonly terminated: Uint8Array;
  readonly truncated: Uint8Array;
  readonly finalValues: Float32Array;
  readonly mask: Float32Array;
  readonly bootstrapValues: Float32Array;

  constructor(readonly numSteps: number, readonly numEnvs: number, readonly obsDim: number, readonly actionDim: number) {
    const entries = numSteps * numEnvs;
    this.obs = new Float32Array(entries * obsDim);
    this.actions = new Float32Array(entries * actionDim);
    this.logProbs = new Float32Array(entries);
    this.values = new Float32Array(entries);
    this.rewards = new Float32Array(entries);
    this.terminated = new Uint8Array(entries);
    this.truncated = new Uint8Array(entries);
    this.finalValues = new Float32Array(entries);
    this.mask = new Float32Array(entries);
    this.bootstrapValues = new Float32Array(numEnvs);
  }

  get entries(): number {
    return this.numSteps * this.numEnvs;
  }

  /** The advantage estimators' view: one env step per decision. */
  signals(): RolloutSignals {
    return {
      numSteps: this.numSteps, numEnvs: this.numEnvs, rewards: this.rewards, values: this.values, terminated: this.terminated,
      truncated: this.truncated, chunkSteps: new Float32Array(this.entries).fill(1), finalValues: this.finalValues,
      bootstrapValues: this.bootstrapValues, mask: this.mask,
    };
  }
}

/** Log N(x; μ, e^logStd) summed over each row of A dims, in float64. */
export function gaussianLogProbRows(actions: Float32Array, mean: Float32Array, logStd: Float32Array): Float32Array {
  const actionDim = logStd.length;
  const out = new Float32Array(actions.length / actionDim);
  for (let row = 0; row < out.length; row++) {
    let sum = 0;
    for (let dim = 0; dim < actionDim; dim++) {
      const z = (actions[row * actionDim + dim] - mean[row * actionDim + dim]) / Math.exp(logStd[dim]);
      sum += -0.5 * z * z - logStd[dim] - HALF_LOG_TWO_PI;
    }
    out[row] = sum;
  }
  return out;
}

export interface GaussianRolloutStats {
  episodes: EpisodeRecord[];
  envSteps: number;
  rolloutSeconds: number;
  meanStd: number;
}

export async function collectGaussianRollout(
  bundle: GaussianBundle, env: BatchEnv, history: ObsHistory, rewardScaler: RewardScaler, config: RunConfig, rng: Rng, phases: PhaseTimes,
): Promise<{ buffer: GaussianRolloutBuffer; stats: GaussianRolloutStats }> {
  const started = phases.clock();
  const { obsDim, actionDim } = bundle.policy.options;
  const numEnvs = env.numEnvs;
  const buffer = new GaussianRolloutBuffer(config.env.steps_per_iteration, numEnvs, obsDim, actionDim);
  const alive = new Uint8Array(numEnvs).fill(1);
  const noise = new Float32Array(numEnvs * actionDim);
  let envSteps = 0;
  let meanStd = 0;
  for (let step = 0; step < buffer.numSteps; step++) {
    const obs = bundle.obsScaler.observe(history.stacked());
    const forward = await phases.time('policy', () => gaussianForward(bundle.policy, obs));
    rng.fillNormal(noise);
    const actions = new Float32Array(numEnvs * actionDim);
    for (let index = 0; index < actions.length; index++) actions[index] = forward.mean[index] + Math.exp(forward.logStd[index % actionDim]) * noise[index];
    const first = step * numEnvs;
    buffer.obs.set(obs, first * obsDim);
    buffer.actions.set(actions, first * actionDim);
    buffer.logProbs.set(gaussianLogProbRows(actions, forward.mean, forward.logStd), first);
    buffer.values.set(forward.values, first);
    meanStd = forward.logStd.reduce((sum, value) => sum + Math.exp(value), 0) / actionDim;

    const result = await phases.time('env', () => env.stepChunk(actions, 1, config.advantages.gamma));
    const done = new Uint8Array(numEnvs);
    for (let envIndex = 0; envIndex < numEnvs; envIndex++) done[envIndex] = result.terminated[envIndex] || result.truncated[envIndex] ? 1 : 0;
    buffer.rewards.set(rewardScaler.scale(result.reward, done), first);
    let anyTruncated = false;
    for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
      const entry = first + envIndex;
      buffer.mask[entry] = alive[envIndex];
      if (alive[envIndex]) envSteps += result.steps[envIndex];
      buffer.terminated[entry] = result.terminated[envIndex];
      buffer.truncated[entry] = result.terminated[envIndex] ? 0 : result.truncated[envIndex];
      if (buffer.truncated[entry] && alive[envIndex]) anyTruncated = true;
    }
    const finalObs = history.advance(result, 1, 'step');
    if (anyTruncated) {
      const finalValues = await phases.time('value', () => gaussianValues(bundle, finalObs));
      for (let envIndex = 0; envIndex < numEnvs; envIndex++) if (buffer.truncated[first + envIndex]) buffer.finalValues[first + envIndex] = finalValues[envIndex];
    }
    if (!config.env.auto_reset) for (let envIndex = 0; envIndex < numEnvs; envIndex++) if (done[envIndex]) alive[envIndex] = 0;
  }
  buffer.bootstrapValues.set(await phases.time('value', () => gaussianValues(bundle, history.stacked())));
  return { buffer, stats: { episodes: await env.drainEpisodes(), envSteps, rolloutSeconds: (phases.clock() - started) / 1000, meanStd } };
}
