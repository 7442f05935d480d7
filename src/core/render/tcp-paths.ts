/**
 * TCP paths implied by sampled action chunks under `ee_delta_pos` (DESIGN.md §5):
 * each executed step moves the TCP target by EE_DELTA_LIMIT · clip(a, -1, 1) per
 * world axis, kept inside the controller's workspace box, starting from the TCP
 * of the observation. The path is the chain of targets, as the controller aims them.
 */
import { ShapeError } from '../errors';
import { EE_DELTA_LIMIT, WORKSPACE_HIGH, WORKSPACE_LOW } from '../envs/controller';

/**
 * actions: [M, H, A] env-unit actions (A ≥ 3; the first 3 are dx, dy, dz); start: [3] TCP.
 * Returns [M, H + 1, 3]: the start, then the target after each of the H steps.
 */
export function tcpPaths(actions: Float32Array, count: number, horizon: number, actionDim: number, start: ArrayLike<number>): Float32Array {
  if (actionDim < 3) throw new ShapeError('actionDim', `TCP paths need ee_delta_pos actions (dx, dy, dz, gripper), got action_dim ${actionDim}`);
  if (actions.length !== count * horizon * actionDim) {
    throw new ShapeError('actions', `actions has ${actions.length} values, expected [M ${count}, H ${horizon}, A ${actionDim}] = ${count * horizon * actionDim}`);
  }
  if (start.length !== 3) throw new ShapeError('start', `start must be a TCP position [3], got ${start.length} values`);
  const paths = new Float32Array(count * (horizon + 1) * 3);
  for (let chainIndex = 0; chainIndex < count; chainIndex++) {
    const point = [start[0], start[1], start[2]];
    const pathBase = chainIndex * (horizon + 1) * 3;
    paths.set(point, pathBase);
    for (let step = 0; step < horizon; step++) {
      const actionBase = (chainIndex * horizon + step) * actionDim;
      for (let axis = 0; axis < 3; axis++) {
        const delta = EE_DELTA_LIMIT * Math.min(1, Math.max(-1, actions[actionBase + axis]));
        point[axis] = Math.min(WORKSPACE_HIGH[axis], Math.max(WORKSPACE_LOW[axis], point[axis] + delta));
      }
      paths.set(point, pathBase + (step + 1) * 3);
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
