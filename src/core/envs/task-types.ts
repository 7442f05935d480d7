/**
 * Observation layouts and env-level modes shared by every task (DESIGN.md §5, §13). What a task is
 * lives in task-api.ts (the contract) and task-definition.ts (a loaded task).
 */
import type { ObsMode as ApiObsMode, ObservationSliceMode, RewardMode as ApiRewardMode } from './task-api';

export type { TaskName } from '../config/run-config';

export const OBS_MODES: readonly ApiObsMode[] = ['state', 'pointcloud', 'depth_pointcloud', 'rgb', 'rgbd'];
/** The observations a task's slices may name in their modes (depth_pointcloud takes the 'pointcloud' slices). */
export const OBSERVATION_SLICE_MODES: readonly ObservationSliceMode[] = ['state', 'pointcloud', 'rgb', 'rgbd'];
/** Observation modes whose observations carry camera images beside the float row. */
export const IMAGE_OBS_MODES: readonly ApiObsMode[] = ['rgb', 'rgbd'];

/** Whether observations of `mode` carry camera images (rgb, rgbd). */
export function isImageObsMode(mode: string): mode is 'rgb' | 'rgbd' {
  return (IMAGE_OBS_MODES as readonly string[]).includes(mode);
}
export type ObsMode = ApiObsMode;

/** True for the observations that start with N points [N, 3] (surface-sampled, or from depth cameras). */
export function hasPointCloud(mode: ObsMode): mode is 'pointcloud' | 'depth_pointcloud' {
  return mode === 'pointcloud' || mode === 'depth_pointcloud';
}

/** The task slices an observation carries: those marked 'pointcloud' beside either kind of points, else those marked with its own mode. */
export function sliceModeOf(mode: ObsMode): ObservationSliceMode {
  return hasPointCloud(mode) ? 'pointcloud' : mode;
}

/** Whether observations of `mode` read the task's cameras (env.camera, env.image_size): depth clouds and images. */
export function readsCameras(mode: string): boolean {
  return mode === 'depth_pointcloud' || isImageObsMode(mode);
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
  /** Image modes only: the camera images each observation carries beside its float row (proprioception). */
  image?: ImageLayout;
}

/**
 * Camera images of one observation: `cameras.length` images of size × size pixels with `channels` bytes each
 * (rgb, or rgb + a depth byte), laid out [cameras, size, size, channels], row 0 on top.
 */
export interface ImageLayout {
  /** Camera names in layout order; 'default' stands for the scene's first camera until an env resolves it. */
  cameras: readonly string[];
  size: number;
  channels: 3 | 4;
}
