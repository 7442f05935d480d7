/**
 * The page's view of a task the user added (DESIGN.md §13): its code runs only in workers, but the
 * page validates configs that name it (hash links, the Config tab), which reads sizes and names
 * alone. A stand-in is that shape as a task definition whose functions are never called here.
 */
import type { TaskSpec } from '../../core/envs/task-api';
import { compileTask, type TaskDefinition } from '../../core/envs/task-definition';
import { TaskError } from '../../core/errors';
import type { TaskEntry, TaskShape } from '../../protocol/trainer-api';

/** Every control is 'custom' here: its size is known, and nothing here compiles the scene. */
function standInSpec(name: string, doc: string, hasSuccess: boolean, shape: TaskShape): TaskSpec {
  const workerOnly = (what: string) => () => {
    throw new TaskError(`task '${name}' runs in the trainer's workers; the page has no ${what} for it`);
  };
  return {
    name, doc, hasSuccess,
    scene: '<mujoco model="stand-in"></mujoco>',
    controls: Object.fromEntries(shape.controls.map(({ name: control, dim }) => [control, { kind: 'custom', dim, act: workerOnly('control') }])),
    defaultControl: shape.defaultControl,
    frameSkip: shape.frameSkip,
    maxEpisodeSteps: shape.maxEpisodeSteps,
    stateSize: shape.stateSize,
    rewardModes: shape.rewardModes,
    observation: shape.observation.map(({ slices, modes }) => ({ slices, modes, read: workerOnly('observation') })),
    reset: workerOnly('reset'),
    step: workerOnly('step'),
    ...(shape.expertControl !== undefined ? { expert: { control: shape.expertControl, create: workerOnly('expert') } } : {}),
  };
}

/** The stand-in of an added task's entry; a built-in's entry (no shape) has none. */
export function taskStandIn(entry: TaskEntry): TaskDefinition | undefined {
  if (entry.builtIn || !entry.shape) return undefined;
  return compileTask(standInSpec(entry.name, entry.doc, entry.hasSuccess, entry.shape), { label: `added task '${entry.name}'` });
}
