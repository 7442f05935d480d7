/**
 * Observation layouts and env-level modes shared by every task (DESIGN.md §5, §13). What a task is
 * lives in task-api.ts (the contract) and task-definition.ts (a loaded task).
 */
import type { ObsMode as ApiObsMode, ObservationSliceMode, RewardMode as ApiRewardMode } from './task-api';

export type { TaskName } from '../config/run-config';

export const OBS_MODES: readonly ApiObsMode[] = ['state', 'pointcloud', 'depth_pointcloud'];
export type ObsMode = ApiObsMode;

/** True for the observations that start with N points [N, 3] (surface-sampled, or from depth cameras). */
export function hasPointCloud(mode: ObsMode): mode is 'pointcloud' | 'depth_pointcloud' {
  return mode === 'pointcloud' || mode === 'depth_pointcloud';
}

/** The task slices an observation carries: those marked 'pointcloud' beside either kind of points, else 'state'. */
export function sliceModeOf(mode: ObsMode): ObservationSliceMode {
  return hasPointCloud(mode) ? 'pointcloud' : 'state';
}

export const REWARD_MODES: readonly ApiRewardMode[] = ['dense', 'sparse'];
export type RewardMode = ApiRewardMode;

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
  /** Point-cloud modes only: number of points; the points come first as [N, 3]. */
  numPoints?: number;
}
