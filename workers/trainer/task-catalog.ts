/**
 * The tasks the task picker offers (DESIGN.md §13): every registered task, with the observation
 * kinds that have a shipped checkpoint to start from (point clouds only where one ships), and an
 * added task's shape, by which the page validates configs that name it.
 */
import type { TaskDefinition } from '../../src/core/envs/task-definition';
import { getTask, taskNames } from '../../src/core/envs/task-registry';
import type { ObsType, TaskEntry, TaskShape } from '../../src/protocol/trainer-api';
import { shippedExists } from './model-source';

const pointCloudShipped = new Map<string, Promise<boolean>>();

export function taskShape(task: TaskDefinition): TaskShape {
  return {
    frameSkip: task.frameSkip,
    maxEpisodeSteps: task.maxEpisodeSteps,
    stateSize: task.stateSize,
    rewardModes: [...task.rewardModes],
    defaultControl: task.defaultControl,
    controls: [...task.controls.values()].map(({ name, dim }) => ({ name, dim })),
    observation: task.observation.map((entry) => ({ slices: entry.slices.map((slice) => ({ ...slice })), modes: [...entry.modes] })),
    ...(task.expert ? { expertControl: task.expert.control } : {}),
  };
}

export function taskEntry(task: TaskDefinition, obsTypes: ObsType[] = ['state']): TaskEntry {
  const builtIn = task.module === undefined;
  return {
    name: task.name, doc: task.doc, builtIn, obsTypes, hasSuccess: task.hasSuccess, hasExpert: task.expert !== undefined,
    ...(builtIn ? {} : { shape: taskShape(task) }),
  };
}

export async function taskEntries(): Promise<TaskEntry[]> {
  return Promise.all(taskNames().map(async (name) => {
    const task = getTask(name);
    if (task.module !== undefined) return taskEntry(task);
    if (!pointCloudShipped.has(name)) pointCloudShipped.set(name, shippedExists(name, 'pointcloud'));
    return taskEntry(task, (await pointCloudShipped.get(name)) ? ['state', 'pointcloud'] : ['state']);
  }));
}
