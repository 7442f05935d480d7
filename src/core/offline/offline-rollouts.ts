import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import type { EpisodeRecord } from '../envs/task-env';
import type { PolicyBundle } from '../policy/policy-bundle';
import type { Rng } from '../random';
import { ObsHistory } from '../rl/obs-history';
import { executedActions, normalizeStacked, sampleForObs } from '../rl/policy-bundle';
import { samplerOptionsAt } from '../rl/policy-setup';
import { discountedReturns } from './returns-to-go';

/** Stage-2 rollouts of the stage-1 policy, one whole episode per env, laid out like BC samples. */
export interface OfflineRollouts {
  /** Decisions kept (every decision of every env's first episode). */
  size: number;
  /** [D, nObs·obsDim] normalized stacked observation before each decision. */
  obs: Float32Array;
  /** [D, H, A] the sampled chunk x_K in normalized units (its first n_action_steps ran). */
  actions: Float32Array;
  /** [D] Monte-Carlo discounted return-to-go from each decision (per env step γ). */
  returns: Float32Array;
  /** [E + 1] first decision of each episode (env order), last value D. */
  episodeStarts: Int32Array;
  /** The episodes, in env order. */
  episodes: EpisodeRecord[];
}

/** Per-env decisions of the first episode, before they are laid out. */
interface EnvTrack {
  obs: Float32Array[];
  actions: Float32Array[];
  rewards: number[];
  steps: number[];
}

/**
 * Runs the policy with the stochastic sampler PPO would use at env step 0 (the config's noise.*)
 * for one episode per seed (`env` has one env per seed), and keeps each episode's decisions:
 * the observation history (stacked by `policy.history_spacing`, as evaluation does), the whole
 * H-step chunk, the chunk reward R = Σ_j γ^j·r_j and τ, turned into returns-to-go.
 */
export async function collectOfflineRollouts(bundle: PolicyBundle, env: BatchEnv, config: RunConfig, seeds: readonly number[], rng: Rng): Promise<OfflineRollouts> {
  const numEnvs = env.numEnvs;
  if (seeds.length !== numEnvs) throw new RangeError(`stage-2 rollouts need one env per seed: ${seeds.length} seeds for ${numEnvs} envs`);
  const { horizon, actionDim } = bundle.policy.options;
  const chunkSize = horizon * actionDim;
  const sampler = samplerOptionsAt(config, 0, 'train');
  const nActionSteps = config.policy.n_action_steps;
  const gamma = config.advantages.gamma;
  const history = new ObsHistory(numEnvs, env.obsDim, config.policy.n_obs_steps);
  history.reset(await env.reset(seeds));
  await env.drainEpisodes();
  const tracks: EnvTrack[] = Array.from({ length: numEnvs }, () => ({ obs: [], actions: [], rewards: [], steps: [] }));
  const firstEpisodes: (EpisodeRecord | undefined)[] = new Array(numEnvs).fill(undefined);
  const stackedDim = history.stackedDim;
  let remaining = numEnvs;
  while (remaining > 0) {
    const obs = normalizeStacked(bundle, history.stacked());
    const sample = await sampleForObs(bundle, obs, sampler, rng);
    const result = await env.stepChunk(executedActions(bundle, sample, nActionSteps), nActionSteps, gamma);
    for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
      if (firstEpisodes[envIndex] !== undefined) continue;
      const track = tracks[envIndex];
      track.obs.push(obs.slice(envIndex * stackedDim, (envIndex + 1) * stackedDim));
      track.actions.push(sample.actions.slice(envIndex * chunkSize, (envIndex + 1) * chunkSize));
      track.rewards.push(result.reward[envIndex]);
      track.steps.push(result.steps[envIndex]);
    }
    history.advance(result, nActionSteps, config.policy.history_spacing);
    for (const episode of await env.drainEpisodes()) {
      if (firstEpisodes[episode.envIndex] === undefined) {
        firstEpisodes[episode.envIndex] = episode;
        remaining--;
      }
    }
  }
  return layOut(tracks, firstEpisodes as EpisodeRecord[], stackedDim, chunkSize, gamma);
}

function layOut(tracks: EnvTrack[], episodes: EpisodeRecord[], stackedDim: number, chunkSize: number, gamma: number): OfflineRollouts {
  const size = tracks.reduce((sum, track) => sum + track.rewards.length, 0);
  const obs = new Float32Array(size * stackedDim);
  const actions = new Float32Array(size * chunkSize);
  const episodeStarts = [0];
  let decision = 0;
  for (const track of tracks) {
    track.obs.forEach((row, index) => obs.set(row, (decision + index) * stackedDim));
    track.actions.forEach((row, index) => actions.set(row, (decision + index) * chunkSize));
    decision += track.rewards.length;
    episodeStarts.push(decision);
  }
  const returns = discountedReturns(tracks.flatMap((track) => track.rewards), tracks.flatMap((track) => track.steps), episodeStarts, gamma);
  return { size, obs, actions, returns, episodeStarts: Int32Array.from(episodeStarts), episodes };
}
