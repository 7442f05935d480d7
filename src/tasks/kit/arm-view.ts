/**
 * What the built-in arm tasks read about one env: the contract's view with the arm's ids resolved
 * and the per-episode state every arm task keeps (a goal point and the object's rest height) as
 * named fields over view.state.
 */
import type { DataArrays } from '../../core/envs/task-api';
import type { MjData } from '../../core/envs/task-api';
import type { TaskView } from '../../core/envs/task-api';
import { armScene, type ArmScene } from './arm-scene';

/** view.state holds the goal [3], then the object's rest height. */
export const ARM_STATE_SIZE = 4;

export interface ArmEpisodeState {
  /** [3] world-frame goal point; unused by lift. */
  readonly goal: Float64Array;
  /** Object centre height at reset. */
  objectRestZ: number;
}

export interface ArmView {
  readonly scene: ArmScene;
  readonly data: MjData;
  readonly arrays: DataArrays;
  readonly episode: ArmEpisodeState;
  /** The contract's view this one reads. */
  readonly base: TaskView;
}

const views = new WeakMap<TaskView, ArmView>();

/** The arm's view of one env, built once per env. */
export function armView(view: TaskView): ArmView {
  let arm = views.get(view);
  if (!arm) {
    const state = view.state;
    const episode: ArmEpisodeState = {
      goal: state.subarray(0, 3),
      get objectRestZ() { return state[3]; },
      set objectRestZ(value: number) { state[3] = value; },
    };
    arm = { scene: armScene(view.mj, view.model), data: view.data, arrays: view.arrays, episode, base: view };
    views.set(view, arm);
  }
  return arm;
}
