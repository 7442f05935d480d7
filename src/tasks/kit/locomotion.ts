/**
 * Shared pieces of the locomotion tasks (DESIGN.md §14: hopper, walker2d, halfcheetah, ant with
 * Gymnasium's v5 semantics): MJCF attribute formatting for the scenes, the observation slices
 * (positions without the root's horizontal coordinates, velocities, optionally clipped), reset
 * noise and the control cost. Each task keeps its own weights, ranges and reward in its folder.
 */
import type { ObservationSlice, Rng, TaskControl, TaskView } from '../../core/envs/task-api';

export type MjcfValue = string | number | readonly number[] | undefined;

/**
 * ` key="value"` pairs for an MJCF element; numbers print as the shortest text that reads back
 * as the same float64, so the compiled model holds exactly the numbers the scene names.
 */
export function mjcfAttributes(values: Readonly<Record<string, MjcfValue>>): string {
  let text = '';
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const shown = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : value.map(String).join(' ');
    text += ` ${key}="${shown}"`;
  }
  return text;
}

/** `<tag attrs/>` or `<tag attrs>children</tag>`. */
export function mjcfElement(tag: string, values: Readonly<Record<string, MjcfValue>>, children?: readonly string[]): string {
  const open = `<${tag}${mjcfAttributes(values)}`;
  return children === undefined || children.length === 0 ? `${open}/>` : `${open}>\n${children.join('\n')}\n</${tag}>`;
}

/**
 * Torques as Gymnasium applies them: data.ctrl = action, one action value per motor. The motors'
 * ctrlrange is [-1, 1], the action's own range, so nothing is rescaled (and a built-in task needs
 * no compiled scene to know its action size).
 */
export function torqueControl(motors: number): TaskControl {
  return {
    kind: 'custom',
    dim: motors,
    act(view, action, offset) {
      const ctrl = view.arrays.ctrl;
      for (let index = 0; index < motors; index++) ctrl[index] = action[offset + index];
    },
  };
}

/** qpos without its first `skip` entries (the root's x, or x and y): Gymnasium's exclude_current_positions_from_observation. */
export function positionsSlice(nq: number, skip: number, doc: string): ObservationSlice {
  return {
    name: 'qpos',
    dim: nq - skip,
    doc,
    // Beside a point cloud too: the body's own state is all the proprioception there is.
    modes: ['state', 'pointcloud'],
    read(view, out, offset) {
      const qpos = view.arrays.qpos;
      for (let index = skip; index < nq; index++) out[offset + index - skip] = qpos[index];
    },
  };
}

/** qvel, clipped to ±clip when given (Hopper and Walker2d clip at 10). */
export function velocitiesSlice(nv: number, doc: string, clip?: number): ObservationSlice {
  return {
    name: 'qvel',
    dim: nv,
    doc,
    modes: ['state', 'pointcloud'],
    read(view, out, offset) {
      const qvel = view.arrays.qvel;
      for (let index = 0; index < nv; index++) {
        const value = qvel[index];
        out[offset + index] = clip === undefined ? value : Math.min(clip, Math.max(-clip, value));
      }
    },
  };
}

/** Adds uniform noise in [-scale, scale) to each value. */
export function addUniformNoise(values: Float64Array, scale: number, rng: Rng): void {
  for (let index = 0; index < values.length; index++) values[index] += -scale + 2 * scale * rng.uniform();
}

/** Adds scale × N(0, 1) to each value. */
export function addNormalNoise(values: Float64Array, scale: number, rng: Rng): void {
  for (let index = 0; index < values.length; index++) values[index] += scale * rng.normal();
}

/**
 * The root's forward (x) velocity over the last step, from its x before it kept in state[0]
 * (Gymnasium's (x_after − x_before) / dt), and state[0] moved on to the current x.
 */
export function forwardVelocity(view: TaskView, dt: number): number {
  const x = view.arrays.qpos[0];
  const velocity = (x - view.state[0]) / dt;
  view.state[0] = x;
  return velocity;
}

/**
 * weight × Σ ctrl²: ctrl holds the action itself (torqueControl), which is what Gymnasium's
 * control cost squares.
 */
export function controlCost(view: TaskView, weight: number): number {
  const ctrl = view.arrays.ctrl;
  let sum = 0;
  for (let index = 0; index < ctrl.length; index++) sum += ctrl[index] * ctrl[index];
  return weight * sum;
}

/** Every qpos and qvel entry finite. */
export function stateFinite(view: TaskView): boolean {
  const { qpos, qvel } = view.arrays;
  for (let index = 0; index < qpos.length; index++) if (!Number.isFinite(qpos[index])) return false;
  for (let index = 0; index < qvel.length; index++) if (!Number.isFinite(qvel[index])) return false;
  return true;
}

/** The floor and light every locomotion scene shares (a large plane; planes are left out of point clouds). */
export function floorMjcf(values: Readonly<Record<string, MjcfValue>>): string {
  return [
    mjcfElement('light', { name: 'sun', directional: 'true', pos: [0, 0, 1.3], dir: [0, 0, -1.3], diffuse: [1, 1, 1], specular: [0.1, 0.1, 0.1], cutoff: 100 }),
    mjcfElement('geom', { name: 'floor', type: 'plane', pos: [0, 0, 0], ...values }),
  ].join('\n');
}
