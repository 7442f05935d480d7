/**
 * The shape every task folder implements (DESIGN.md §5): scene, observation
 * spec, rewards, success rule, seeded reset and a scripted expert.
 */
import type { Rng } from '../random';
import type { MjData } from './mujoco-types';
import type { SceneModel } from './scene-model';
import type { DataArrays } from './data-arrays';

export const TASK_NAMES = ['reach', 'lift', 'pick-cube', 'stack-cube', 'peg-insertion'] as const;
export type TaskName = (typeof TASK_NAMES)[number];

export const OBS_MODES = ['state', 'pointcloud'] as const;
export type ObsMode = (typeof OBS_MODES)[number];

export const REWARD_MODES = ['dense', 'sparse'] as const;
export type RewardMode = (typeof REWARD_MODES)[number];

/** A named slice [start, start + dim) of a flat observation vector. */
export interface ObsSlice {
  name: string;
  start: number;
  dim: number;
  doc: string;
}

export interface ObsSpec {
  mode: ObsMode;
  dim: number;
  slices: readonly ObsSlice[];
  /** Point-cloud mode only: number of points; the points come first as [N, 3]. */
  numPoints?: number;
}

/** Mutable per-episode task state (the goal, the cube's rest height). */
export interface TaskEpisodeState {
  /** [3] world-frame goal point; unused by lift. */
  goal: Float64Array;
  /** Cube centre height at reset. */
  objectRestZ: number;
}

/** Everything a task reads about one env at one instant. */
export interface TaskView {
  scene: SceneModel;
  data: MjData;
  /** Cached views of data's arrays; use these on the hot path. */
  arrays: DataArrays;
  episode: TaskEpisodeState;
}

/** Result of one control step's evaluation. */
export interface TaskEvaluation {
  success: boolean;
  /** Staged dense reward in [0, 1]. */
  denseReward: number;
}

/** A closed-loop scripted policy; reset() is called at each episode start. */
export interface Expert {
  reset(): void;
  /** Writes an ee_delta_pos action [4] in [-1, 1]. */
  act(view: TaskView, out: Float32Array): void;
}

export interface TaskDefinition {
  name: TaskName;
  maxEpisodeSteps: number;
  /** One self-contained MJCF string. */
  mjcf(): string;
  /** Task-specific state observation after the shared proprioception. */
  taskStateSlices: readonly Omit<ObsSlice, 'start'>[];
  /** Writes the task-specific state features starting at out[offset]. */
  writeTaskState(view: TaskView, out: Float32Array, offset: number): void;
  /** Task-specific point-cloud proprioception extras (the goal, where it has one). */
  pointcloudExtraSlices: readonly Omit<ObsSlice, 'start'>[];
  writePointcloudExtras(view: TaskView, out: Float32Array, offset: number): void;
  /** Randomizes the episode; the arm is already at home with seeded joint noise. */
  randomize(view: TaskView, rng: Rng): void;
  evaluate(view: TaskView): TaskEvaluation;
  /** noise: std of Gaussian noise added to each action dim (before clipping to [-1, 1]). */
  createExpert(noise: number, rng: Rng): Expert;
}
