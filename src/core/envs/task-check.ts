/**
 * The first run of a task before it is used (DESIGN.md §13): a seeded reset and ten random steps
 * in each observation kind it is asked for must give finite observations and rewards of the
 * declared sizes. A failure is one TaskError naming the task, the step and what was wrong.
 */
import { EnvError, TaskError } from '../errors';
import { createRng } from '../random';
import type { Mujoco } from './mujoco-types';
import type { TaskView } from './task-api';
import type { TaskDefinition } from './task-definition';
import { getTask, hasTask, registerTask, unregisterTask } from './task-registry';
import { sliceModeOf, type ObsMode } from './task-types';
import { VectorEnv } from './vector-env';

const CHECK_STEPS = 10;
const CHECK_SEED = 1;

/** Values written on each side of a slice's range, to catch a read that writes outside its dim. */
const GUARD = 8;

/**
 * Calls each observation entry's read on its own guarded buffer: it must fill exactly its declared
 * dim with finite values (a read writing fewer or more values than its slices declare is named).
 */
function checkSliceSizes(task: TaskDefinition, view: TaskView, mode: ObsMode, when: string): void {
  for (const entry of task.observation) {
    if (!entry.modes.includes(sliceModeOf(mode))) continue;
    const names = entry.slices.map((slice) => slice.name).join("', '");
    const out = new Float32Array(entry.dim + 2 * GUARD).fill(Number.NaN);
    entry.read(view, out, GUARD);
    const outside = [...out.subarray(0, GUARD), ...out.subarray(GUARD + entry.dim)].some((value) => !Number.isNaN(value));
    if (outside) throw new TaskError(`${task.origin}: observation slice '${names}' writes outside its declared dim ${entry.dim} ${when}`);
    const inside = out.subarray(GUARD, GUARD + entry.dim).findIndex((value) => !Number.isFinite(value));
    if (inside >= 0) throw new TaskError(`${task.origin}: observation slice '${names}' leaves value ${inside} of its declared dim ${entry.dim} unwritten or not finite ${when}`);
  }
}

function firstNonFinite(values: Float32Array): number {
  for (let index = 0; index < values.length; index++) if (!Number.isFinite(values[index])) return index;
  return -1;
}

/** Runs the registered task `name` once per control in `obsMode`; throws TaskError on anything not finite or the wrong size. */
export function checkTaskRuns(mj: Mujoco, name: string, obsMode: ObsMode = 'state'): void {
  const task = getTask(name);
  for (const control of task.controls.keys()) {
    let env: VectorEnv | undefined;
    try {
      env = new VectorEnv(mj, { task: name, numEnvs: 1, obsMode, controlMode: control, recordEpisodes: false });
      const { obsSpec, actionDim } = env.config;
      const slice = (index: number) => obsSpec.slices.find((candidate) => index >= candidate.start && index < candidate.start + candidate.dim)?.name ?? '?';
      let obs = env.reset([CHECK_SEED]);
      checkSliceSizes(task, env.taskView(0), obsMode, 'after a seeded reset');
      if (obs.length !== obsSpec.dim) throw new TaskError(`${task.origin}: the observation has ${obs.length} values after reset, but the slices declare ${obsSpec.dim}`);
      let bad = firstNonFinite(obs);
      if (bad >= 0) throw new TaskError(`${task.origin}: observation slice '${slice(bad)}' is ${obs[bad]} after a seeded reset; every value must be finite`);
      const rng = createRng(CHECK_SEED);
      const action = new Float32Array(actionDim);
      for (let step = 1; step <= CHECK_STEPS; step++) {
        for (let dim = 0; dim < actionDim; dim++) action[dim] = 2 * rng.uniform() - 1;
        const result = env.step(action);
        obs = result.obs;
        bad = firstNonFinite(result.finalObs);
        if (bad >= 0) throw new TaskError(`${task.origin}: observation slice '${slice(bad)}' is ${result.finalObs[bad]} after random step ${step} (control '${control}'); every value must be finite`);
        checkSliceSizes(task, env.taskView(0), obsMode, `after random step ${step}`);
        if (!Number.isFinite(result.reward[0])) throw new TaskError(`${task.origin}: step() returned reward ${result.reward[0]} at random step ${step}; rewards must be finite`);
      }
    } catch (error) {
      if (error instanceof TaskError) throw error;
      const message = error instanceof EnvError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
      throw new TaskError(`${task.origin}: a seeded reset and ${CHECK_STEPS} random steps failed (control '${control}'): ${message}`);
    } finally {
      env?.dispose();
    }
  }
}

/**
 * Registers a user's task in place of what its name had and runs its first check; when the check
 * fails, the name's previous task is put back (or none), so a bad folder changes nothing.
 */
export function registerCheckedTask(mj: Mujoco, task: TaskDefinition): void {
  const previous = hasTask(task.name) ? getTask(task.name) : undefined;
  registerTask(task, { replace: true });
  try {
    checkTaskRuns(mj, task.name);
  } catch (error) {
    if (previous) registerTask(previous, { replace: true });
    else unregisterTask(task.name);
    throw error;
  }
}
