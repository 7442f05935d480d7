/**
 * The chain view's 3D overlay (DESIGN.md §1 journey 4): the end-effector (TCP) paths that the
 * sampled chunks imply under the run's control, as the task's render hints say, from the
 * observation the chain view uses (the env's rollout observation, or the stored episode step the
 * request names). Sampled exactly as sampleChains does for the same request, so the paths belong
 * to the chains on screen (a flow or a diffusion policy's). A point-cloud policy's points come along.
 */
import { ConfigError, TrainingError } from '../../src/core/errors';
import { getTask } from '../../src/core/envs/task-registry';
import { observationSpec } from '../../src/core/envs/observation';
import { configControl } from '../../src/core/envs/task-controls';
import { observationState, stateRecord } from '../../src/core/render/observation-state';
import { freeBodyGeomSlots } from '../../src/core/render/free-body-geoms';
import { episodePoses, sceneVisual, visibleGeomIds } from '../../src/core/render/scene-visual';
import { finalChunks, tcpPaths } from '../../src/core/render/tcp-paths';
import type { ChainPaths, ChainSampleRequest } from '../../src/protocol/trainer-api';
import { episodeStepInput, learnerChainPolicy, resolveChainRequest, sampleChainSet } from '../../src/core/studio/chain-sampler';
import { replayScenes } from './episode-replay';
import { policyPointCloud } from '../../src/core/studio/policy-point-cloud';
import type { DecisionInput } from '../../src/core/studio/chain-sampler';
import { liveInput } from './chain-requests';
import type { TrainingSession } from './training-session';

/** The run's live decision input of env `envIndex`; a TrainingError before the first rollout. */
function liveOrRefused(run: NonNullable<TrainingSession['run']>, envIndex: number): DecisionInput {
  const input = liveInput(run, envIndex);
  if (!input) throw new TrainingError('the run has no rollout observation yet: press Step once');
  return input;
}

export function chainPaths(session: TrainingSession, request: ChainSampleRequest): Promise<ChainPaths> {
  return session.inspections.whenNoUpdate(async () => {
    const run = session.run;
    if (!run) throw new TrainingError('the TCP paths need a rollout observation: press Train or Step first');
    const config = run.config;
    const task = getTask(config.task);
    if (!task.render.actionPath || !task.render.endEffectorSite) {
      throw new ConfigError('env.control_mode', `task '${task.name}' names no end effector whose path its actions imply, so it draws no TCP paths`);
    }
    const policy = learnerChainPolicy(run.learner);
    const { bundle } = policy;
    const resolved = resolveChainRequest(request, run.env.numEnvs);
    const { count, seed } = resolved;
    const scenes = await replayScenes();
    const { envIndex, ...input } = request.episode
      ? episodeStepInput(session.episodes, request.episode, bundle, config, scenes)
      : { envIndex: resolved.envIndex, ...liveOrRefused(run, resolved.envIndex) };
    const stacked = input.obs;
    const set = await sampleChainSet(policy, input, config, run.envSteps, count, seed);
    const { horizon, actionDim, steps } = set;
    const unnormalize = (chunks: Float32Array) => bundle.actionNormalizer.unnormalize(chunks);
    const scene = scenes.scene(config.task);
    const spec = observationSpec(task, config.env.obs_type, config.env.num_points);
    const state = observationState(scene, task, spec, stacked.subarray(stacked.length - spec.dim));
    const poses = episodePoses(scene, task, stateRecord(state, scene.nq));
    const start = poses.tcp.subarray(0, 3);
    const control = configControl(config).name;
    const pointCloud = await policyPointCloud(bundle, stacked);
    return {
      count, horizon, nActionSteps: set.nActionSteps, envIndex,
      paths: tcpPaths(task, control, unnormalize(finalChunks(set.chains, count, steps, horizon, actionDim)), count, horizon, actionDim, start),
      odePath: tcpPaths(task, control, unnormalize(finalChunks(set.odeChain, 1, steps, horizon, actionDim)), 1, horizon, actionDim, start),
      visual: sceneVisual(scene, task),
      poses,
      objectFromObservation: state.objectFromObservation,
      unposedGeoms: state.objectFromObservation ? [] : freeBodyGeomSlots(scene, visibleGeomIds(scene)),
      ...(pointCloud ? { pointCloud } : {}),
      obsSource: request.episode ? 'episode' : 'rollout',
      ...(request.episode ? { episode: { id: request.episode.id, step: request.episode.step } } : {}),
    };
  });
}
