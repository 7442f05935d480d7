/**
 * The built-in tasks (DESIGN.md §5, §13): plugins like any user's, each in its own folder, whose
 * module's default export is its TaskSpec. Hosts register them; core imports none of them.
 */
import type { TaskSpec } from '../core/envs/task-api';
import { compileTask } from '../core/envs/task-definition';
import { hasTask, registerTask, setDefaultTask } from '../core/envs/task-registry';
import antTask from './ant/task';
import halfCheetahTask from './halfcheetah/task';
import hopperTask from './hopper/task';
import liftTask from './lift/task';
import pegInsertionTask from './peg-insertion/task';
import pickCubeTask from './pick-cube/task';
import reachTask from './reach/task';
import stackCubeTask from './stack-cube/task';
import walker2dTask from './walker2d/task';

export const BUILT_IN_TASKS: readonly TaskSpec[] = [
  reachTask, liftTask, pickCubeTask, stackCubeTask, pegInsertionTask,
  // Gymnasium's locomotion benchmarks (DESIGN.md §14).
  hopperTask, walker2dTask, halfCheetahTask, antTask,
];

/** The task the studio and journey 1 start with. */
export const DEFAULT_TASK = 'pick-cube';

/** The smallest built-in task: quick end-to-end figures in the benches. */
export const SMALLEST_TASK = 'reach';

/** Registers every built-in task (once per process or worker) and makes DEFAULT_TASK the default. */
export function registerBuiltInTasks(): void {
  for (const spec of BUILT_IN_TASKS) {
    if (!hasTask(spec.name)) registerTask(compileTask(spec, { label: `built-in task '${spec.name}'` }));
  }
  setDefaultTask(DEFAULT_TASK);
}
