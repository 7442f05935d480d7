/**
 * The chain view's 3D overlay (DESIGN.md §1 journey 4): the TCP paths that the
 * sampled chunks imply under `ee_delta_pos`, from the observation the chain view
 * uses (the env's rollout observation, or the stored episode step the request
 * names). Sampled exactly as sampleChains does for the same request, so the paths
 * belong to the chains on screen. A point-cloud policy's points come along.
 */
import { ConfigError, TrainingError } from '../../src/core/errors';
import { getTask } from '../../src/core/envs/registry';
import { observationSpec } from '../../src/core/envs/observation';
import { observationState, stateRecord } from '../../src/core/render/observation-state';
import { episodePoses, sceneVisual } from '../../src/core/render/scene-visual';
import { finalChunks, tcpPaths } from '../../src/core/render/tcp-paths';
import type { ChainPaths, ChainSampleRequest } from '../../src/protocol/trainer-api';
import { episodeStepInput, resolveChainRequest, sampleChainSet } from './chain-sampler';
import { replayScenes } from './episode-replay';
import { policyPointCloud } from './policy-point-cloud';
import type { TrainingSession } from './training-session';

export function chainPaths(session: TrainingSession, request: ChainSampleRequest): Promise<ChainPaths> {
  return session.inspections.whenNoUpdate(async () => {
    const run = session.run;
    if (!run) throw new TrainingError('the TCP paths need a rollout observation: press Train or Step first');
    const config = run.config;
    if (config.env.control_mode !== 'ee_delta_pos') {
      throw new ConfigError('env.control_mode', `TCP paths exist only for env.control_mode 'ee_delta_pos', not '${config.env.control_mode}'`);
    }
    const resolved = resolveChainRequest(request, run.env.numEnvs);
    const { count, seed } = resolved;
    let envIndex = resolved.envIndex;
    let stacked: Float32Array | undefined;
    if (request.episode) {
      ({ obs: stacked, envIndex } = episodeStepInput(session.episodes, request.episode, run.bundle, config));
    } else {
      stacked = run.stackedObs(envIndex);
      if (!stacked) throw new TrainingError('the run has no rollout observation yet: press Step once');
    }
    const set = await sampleChainSet(run.bundle, stacked, config, run.envSteps, count, seed);
    const { horizon, actionDim, steps } = set;
    const unnormalize = (chunks: Float32Array) => run.bundle.actionNormalizer.unnormalize(chunks);
    const scene = (await replayScenes()).scene(config.task);
    const spec = observationSpec(getTask(config.task), config.env.obs_type, config.env.num_points);
    const state = observationState(scene, spec, stacked.subarray(stacked.length - spec.dim));
    const pointCloud = await policyPointCloud(run.bundle, stacked);
    return {
      count, horizon, nActionSteps: set.nActionSteps, envIndex,
      paths: tcpPaths(unnormalize(finalChunks(set.chains, count, steps, horizon, actionDim)), count, horizon, actionDim, state.tcp),
      odePath: tcpPaths(unnormalize(finalChunks(set.odeChain, 1, steps, horizon, actionDim)), 1, horizon, actionDim, state.tcp),
      visual: sceneVisual(scene, config.task),
      poses: episodePoses(scene, stateRecord(state, scene.nq)),
      // A scene with no cube (reach) has nothing drawn out of place.
      objectFromObservation: state.objectFromObservation || scene.objectQposAdr < 0,
      ...(pointCloud ? { pointCloud } : {}),
      obsSource: request.episode ? 'episode' : 'rollout',
      ...(request.episode ? { episode: { id: request.episode.id, step: request.episode.step } } : {}),
    };
  });
}
