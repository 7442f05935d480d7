/**
 * Chains of the current policy for the chain view: the run's weights, noise settings in
 * force and the env's observation in the live rollout; without a run, the selected model
 * on a seeded reset. With `request.episode`, the observation at that step of a stored
 * episode instead. An image policy gets the same decision's camera images (the rollout's,
 * the reset's, or the stored step's rendered from its pose). Never overlaps a PPO update.
 */
import type { ChainSample, ChainSampleRequest } from '../../src/protocol/trainer-api';
import type { DecisionInput } from '../../src/core/studio/chain-sampler';
import { learnerChainPolicy, resolveChainRequest, sampleChainSet, sampleEpisodeChains } from '../../src/core/studio/chain-sampler';
import { IdleChainInputs } from '../../src/core/studio/idle-chain-inputs';
import { RestartableEnv } from './restartable-env';
import { replayScenes } from './episode-replay';
import type { TrainingSession } from './training-session';

const idleInputs = new IdleChainInputs((envConfig) => RestartableEnv.create(envConfig, 1));

/** Frees the idle policy (after a backend switch: the next view builds it on the new backend). */
export function forgetIdlePolicy(): void {
  idleInputs.dispose();
}

/** The selected model's live policy for views without a run (built once per selection). */
function idlePolicy(session: TrainingSession) {
  return idleInputs.policy(session.config, session.models.selected?.checkpoint);
}

/** What env `envIndex`'s first decision after the config's seeded reset sees (observation and images), for views without a rollout. */
export function idleInput(session: TrainingSession, envIndex: number): Promise<DecisionInput> {
  return idleInputs.input(session.run?.config ?? session.config, envIndex);
}

/** What the run's next decision of env `envIndex` sees: its rollout observation and images; undefined before the first rollout. */
export function liveInput(run: NonNullable<TrainingSession['run']>, envIndex: number): DecisionInput | undefined {
  const obs = run.stackedObs(envIndex);
  if (!obs) return undefined;
  const images = run.stackedImages(envIndex);
  return images ? { obs, images } : { obs };
}

export function sampleChains(session: TrainingSession, request: ChainSampleRequest): Promise<ChainSample> {
  return session.inspections.whenNoUpdate(async () => {
    const run = session.run;
    if (run) {
      const config = run.config;
      const { envIndex, count, seed } = resolveChainRequest(request, run.env.numEnvs);
      const policy = learnerChainPolicy(run.learner);
      if (request.episode) return sampleEpisodeChains(session.episodes, request.episode, policy, config, run.envSteps, count, seed, 'run', await replayScenes());
      const live = liveInput(run, envIndex);
      const input = live ?? await idleInputs.input(config, envIndex);
      const set = await sampleChainSet(policy, input, config, run.envSteps, count, seed);
      return { ...set, envIndex, obsSource: live ? 'rollout' : 'reset', model: 'run' };
    }
    const config = session.config;
    const { envIndex, count, seed } = resolveChainRequest(request, config.num_envs);
    const policy = await idlePolicy(session);
    const model = session.models.selected ? 'selected' : 'fresh';
    if (request.episode) return sampleEpisodeChains(session.episodes, request.episode, policy, config, 0, count, seed, model, await replayScenes());
    const input = await idleInputs.input(config, envIndex);
    const set = await sampleChainSet(policy, input, config, 0, count, seed);
    return { ...set, envIndex, obsSource: 'reset', model };
  });
}
