/**
 * Chains of the current policy for the chain view: the run's weights, noise settings in
 * force and the env's observation in the live rollout; without a run, the selected model
 * on a seeded reset. With `request.episode`, the observation at that step of a stored
 * episode instead. Never overlaps a PPO update.
 */
import type { ChainSample, ChainSampleRequest } from '../../src/protocol/trainer-api';
import { learnerChainPolicy, resolveChainRequest, sampleChainSet, sampleEpisodeChains } from '../../src/core/studio/chain-sampler';
import { IdleChainInputs } from '../../src/core/studio/idle-chain-inputs';
import { RestartableEnv } from './restartable-env';
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

/** [nObs·obsDim] raw stacked observation of env `envIndex` after the config's seeded reset, for views without a rollout. */
export function idleObservation(session: TrainingSession, envIndex: number): Promise<Float32Array> {
  return idleInputs.observation(session.run?.config ?? session.config, envIndex);
}

/** [imageBytes] camera images of env `envIndex` after the config's seeded reset; undefined when the env renders none. */
export function idleImages(session: TrainingSession, envIndex: number): Promise<Uint8Array | undefined> {
  return idleInputs.images(session.run?.config ?? session.config, envIndex);
}

export function sampleChains(session: TrainingSession, request: ChainSampleRequest): Promise<ChainSample> {
  return session.inspections.whenNoUpdate(async () => {
    const run = session.run;
    if (run) {
      const config = run.config;
      const { envIndex, count, seed } = resolveChainRequest(request, run.env.numEnvs);
      const policy = learnerChainPolicy(run.learner);
      if (request.episode) return sampleEpisodeChains(session.episodes, request.episode, policy, config, run.envSteps, count, seed, 'run');
      const live = run.stackedObs(envIndex);
      const obs = live ?? await idleInputs.observation(config, envIndex);
      const set = await sampleChainSet(policy, obs, config, run.envSteps, count, seed);
      return { ...set, envIndex, obsSource: live ? 'rollout' : 'reset', model: 'run' };
    }
    const config = session.config;
    const { envIndex, count, seed } = resolveChainRequest(request, config.num_envs);
    const policy = await idlePolicy(session);
    const model = session.models.selected ? 'selected' : 'fresh';
    if (request.episode) return sampleEpisodeChains(session.episodes, request.episode, policy, config, 0, count, seed, model);
    const obs = await idleInputs.observation(config, envIndex);
    const set = await sampleChainSet(policy, obs, config, 0, count, seed);
    return { ...set, envIndex, obsSource: 'reset', model };
  });
}
