/**
 * End-effector paths implied by sampled action chunks (DESIGN.md §1 journey 4): the task's
 * render.actionPath says where each executed step moves its end effector under the run's control,
 * from the end effector's position in the observation the chunks were sampled for.
 */
import { ConfigError, ShapeError } from '../errors';
import type { TaskDefinition } from '../envs/task-definition';

/**
 * actions: [M, H, A] env-unit actions; start: [3] end-effector position.
 * Returns [M, H + 1, 3]: the start, then the target after each of the H steps.
 */
export function tcpPaths(task: TaskDefinition, control: string, actions: Float32Array, count: number, horizon: number, actionDim: number, start: ArrayLike<number>): Float32Array {
  if (actions.length !== count * horizon * actionDim) {
    throw new ShapeError('actions', `actions has ${actions.length} values, expected [M ${count}, H ${horizon}, A ${actionDim}] = ${count * horizon * actionDim}`);
  }
  if (start.length !== 3) throw new ShapeError('start', `start must be an end-effector position [3], got ${start.length} values`);
  const pathOf = task.render.actionPath;
  const paths = new Float32Array(count * (horizon + 1) * 3);
  for (let chainIndex = 0; chainIndex < count; chainIndex++) {
    const pathBase = chainIndex * (horizon + 1) * 3;
    paths.set([start[0], start[1], start[2]], pathBase);
    const chunk = actions.subarray(chainIndex * horizon * actionDim, (chainIndex + 1) * horizon * actionDim);
    if (!pathOf || !pathOf(control, start, chunk, horizon, paths.subarray(pathBase + 3, pathBase + (horizon + 1) * 3))) {
      throw new ConfigError('env.control_mode', `task '${task.name}' draws no end-effector paths for control '${control}'`);
    }
  }
  return paths;
}

/** The final denoised chunk x_K of each chain: chains [M, K+1, H, A] → [M, H, A]. */
export function finalChunks(chains: Float32Array, count: number, steps: number, horizon: number, actionDim: number): Float32Array {
  const chunk = horizon * actionDim;
  if (chains.length !== count * (steps + 1) * chunk) {
    throw new ShapeError('chains', `chains has ${chains.length} values, expected [M ${count}, K+1 ${steps + 1}, H ${horizon}, A ${actionDim}]`);
  }
  const out = new Float32Array(count * chunk);
  for (let chainIndex = 0; chainIndex < count; chainIndex++) {
    const from = (chainIndex * (steps + 1) + steps) * chunk;
    out.set(chains.subarray(from, from + chunk), chainIndex * chunk);
  }
  return out;
}
