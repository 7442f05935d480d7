/**
 * The chain view's 3D overlay (DESIGN.md §1 journey 4): the TCP paths that the
 * sampled chunks imply under `ee_delta_pos`, from the env's rollout observation.
 * Sampled exactly as sampleChains does for the same request, so the paths belong
 * to the chains on screen.
 */
import { ConfigError, TrainingError } from '../../src/core/errors';
import { getTask } from '../../src/core/envs/registry';
import { observationSpec } from '../../src/core/envs/observation';
import { observationState, stateRecord } from '../../src/core/render/observation-state';
import { episodePoses, sceneVisual } from '../../src/core/render/scene-visual';
import { finalChunks, tcpPaths } from '../../src/core/render/tcp-paths';
import type { ChainPaths, ChainSampleRequest } from '../../src/protocol/trainer-api';
import { resolveChainRequest, sampleChainSet } from './chain-sampler';
import { replayScenes } from './episode-replay';
import type { TrainingSession } from './training-session';

export function chainPaths(session: TrainingSession, request: ChainSampleRequest): Promise<ChainPaths> {
  return session.inspections.whenNoUpdate(async () => {
    const run = session.run;
    if (!run) throw new TrainingError('the TCP paths need a rollout observation: press Train or Step first');
    const config = run.config;
    if (config.env.control_mode !== 'ee_delta_pos') {
      throw new ConfigError('env.control_mode', `TCP paths exist only for env.control_mode 'ee_delta_pos', not '${config.env.control_mode}'`);
    }
    const { envIndex, count, seed } = resolveChainRequest(request, run.env.numEnvs);
    const stacked = run.stackedObs(envIndex);
    if (!stacked) throw new TrainingError('the run has no rollout observation yet: press Step once');
    const set = await sampleChainSet(run.bundle, stacked, config, run.envSteps, count, seed);
    const { horizon, actionDim, steps } = set;
    const unnormalize = (chunks: Float32Array) => run.bundle.actionNormalizer.unnormalize(chunks);
    const scene = (await replayScenes()).scene(config.task);
    const spec = observationSpec(getTask(config.task), config.env.obs_type, config.env.num_points);
    const state = observationState(scene, spec, stacked.subarray(stacked.length - spec.dim));
    return {
      count, horizon, nActionSteps: set.nActionSteps, envIndex,
      paths: tcpPaths(unnormalize(finalChunks(set.chains, count, steps, horizon, actionDim)), count, horizon, actionDim, state.tcp),
      odePath: tcpPaths(unnormalize(finalChunks(set.odeChain, 1, steps, horizon, actionDim)), 1, horizon, actionDim, state.tcp),
      visual: sceneVisual(scene, config.task),
      poses: episodePoses(scene, stateRecord(state, scene.nq)),
      objectFromObservation: state.objectFromObservation,
    };
  });
}
