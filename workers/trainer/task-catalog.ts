/**
 * The tasks the task picker offers (DESIGN.md §13): every registered task, with the observation
 * kinds it can start from (surface point clouds only where a checkpoint ships; depth point clouds
 * and camera images where its scene names a camera, DESIGN.md §19), and an added task's shape, by
 * which the page validates configs that name it.
 */
import type { TaskDefinition } from '../../src/core/envs/task-definition';
import { getTask, taskNames } from '../../src/core/envs/task-registry';
import type { ObsType, TaskEntry, TaskShape } from '../../src/protocol/trainer-api';
import { taskCameraNames } from '../../src/core/studio/camera-view';
import { replayScenes } from './episode-replay';
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

/** What a scene with a camera adds: the depth point cloud, and the rgb image (its first camera unless env.camera names others). */
const CAMERA_OBS_TYPES: ObsType[] = ['depth_pointcloud', 'rgb'];

/** The observation kinds the task's cameras give: none when its scene names no camera. */
async function cameraObsTypes(task: TaskDefinition): Promise<ObsType[]> {
  return taskCameraNames(await replayScenes(), task.name).length > 0 ? CAMERA_OBS_TYPES : [];
}

/** The observation kinds an added task offers: state, and the camera kinds when its scene names a camera. */
export async function addedTaskEntry(task: TaskDefinition): Promise<TaskEntry> {
  return taskEntry(task, ['state', ...(await cameraObsTypes(task))]);
}

export async function taskEntries(): Promise<TaskEntry[]> {
  return Promise.all(taskNames().map(async (name) => {
    const task = getTask(name);
    if (task.module !== undefined) return addedTaskEntry(task);
    if (!pointCloudShipped.has(name)) pointCloudShipped.set(name, shippedExists(name, 'pointcloud'));
    const [shipped, camera] = await Promise.all([pointCloudShipped.get(name), cameraObsTypes(task)]);
    return taskEntry(task, ['state', ...(shipped ? ['pointcloud' as const] : []), ...camera]);
  }));
}
