/**
 * The live view's frame (DESIGN.md §1 journey 4 "Live view"): env `envIndex`'s newest
 * rollout observation rebuilt as a scene. It reads the trainer's observation history
 * (a copy) and never waits for the loop, so polling it costs the run one short message.
 */
import { getTask } from '../../src/core/envs/task-registry';
import { observationSpec } from '../../src/core/envs/observation';
import { observationState, stateRecord } from '../../src/core/render/observation-state';
import { episodePoses, sceneVisual } from '../../src/core/render/scene-visual';
import type { LiveFrame } from '../../src/protocol/trainer-api';
import { resolveChainRequest } from '../../src/core/studio/chain-sampler';
import { replayScenes } from './episode-replay';
import type { TrainingSession } from './training-session';

export async function liveFrame(session: TrainingSession, envIndex: number): Promise<LiveFrame | null> {
  const run = session.run;
  if (!run) return null;
  resolveChainRequest({ envIndex }, run.env.numEnvs);
  const stacked = run.stackedObs(envIndex);
  if (!stacked) return null;
  const config = run.config;
  const scene = (await replayScenes()).scene(config.task);
  const task = getTask(config.task);
  const spec = observationSpec(task, config.env.obs_type, config.env.num_points);
  const state = observationState(scene, task, spec, stacked.subarray(stacked.length - spec.dim));
  return {
    envIndex, iteration: run.iteration, envSteps: run.envSteps,
    visual: sceneVisual(scene, task), poses: episodePoses(scene, task, stateRecord(state, scene.nq)),
    objectFromObservation: state.objectFromObservation,
  };
}
