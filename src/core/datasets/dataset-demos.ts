/**
 * A dataset read from another layout, matched to a task: its observation must be the size of the
 * task's state observation and its actions the size of one of the task's controls, else one
 * sentence names both sizes. The result is native demonstrations with their metadata.
 */
import { demoMetadataFor, type DemoMetadata } from '../envs/demo-format';
import type { Demonstrations } from '../envs/expert-rollout';
import { observationSpec } from '../envs/observation';
import { controlForActionDim } from '../envs/task-controls';
import { getTask } from '../envs/task-registry';
import type { TaskName } from '../envs/task-types';
import { DemosError } from '../errors';
import { assertFinite, type DatasetEpisodes } from './dataset-episodes';

export function datasetDemos(episodes: DatasetEpisodes, taskName: TaskName, label: string): { demos: Demonstrations; metadata: DemoMetadata } {
  const task = getTask(taskName);
  const spec = observationSpec(task, 'state');
  const from = episodes.obsSource ? ` (${episodes.obsSource})` : '';
  if (episodes.obsDim !== spec.dim) {
    throw new DemosError(`${label}'s observations${from} hold ${episodes.obsDim} values but ${taskName}'s state observation holds ${spec.dim}`);
  }
  const control = controlForActionDim(taskName, episodes.actionDim);
  if (control === undefined) {
    const sizes = [...task.controls.values()].map((entry) => `${entry.dim} (${entry.name})`).join(' or ');
    throw new DemosError(`${label}'s actions hold ${episodes.actionDim} values but ${taskName}'s actions take ${sizes}`);
  }
  const steps = episodes.rewards.length;
  if (steps === 0) throw new DemosError(`${label} holds no steps`);
  assertFinite(label, 'observations', episodes.obs, episodes.obsDim);
  assertFinite(label, 'actions', episodes.actions, episodes.actionDim);
  assertFinite(label, 'rewards', episodes.rewards, 1);
  const count = episodes.terminated.length;
  const demos: Demonstrations = {
    task: taskName, obsMode: 'state', obsDim: episodes.obsDim, actionDim: episodes.actionDim,
    obs: episodes.obs, actions: episodes.actions, rewards: episodes.rewards,
    episodeStarts: episodes.episodeStarts, success: episodes.success,
    // Reset seeds are not known for data recorded elsewhere.
    seeds: new Int32Array(count).fill(-1), terminated: episodes.terminated,
  };
  const metadata = demoMetadataFor(demos, { seed: 0, noise: 0, obsSlices: spec.slices, maxEpisodeSteps: task.maxEpisodeSteps, controlMode: control });
  return { demos, metadata };
}
