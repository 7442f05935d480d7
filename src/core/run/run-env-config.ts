/** The one RunConfig → env-batch mapping (DESIGN.md §2): every host opens its envs from this. */
import type { RunConfig } from '../config/run-config';
import { getTask } from '../envs/task-registry';
import { configControl } from '../envs/task-controls';
import type { VectorEnvConfig } from '../envs/vector-env-config';
import { observationSpec } from '../envs/observation';
import { parseCameraList } from '../envs/camera/camera-lookup';
import { readsCameras, type ObsSpec } from '../envs/task-types';

/** The observation a run's envs give (its images as asked for: 'default' not yet resolved against the scene). */
export function configObservationSpec(config: RunConfig): ObsSpec {
  return observationSpec(getTask(config.task), config.env.obs_type, config.env.num_points, { cameras: parseCameraList(config.env.camera), imageSize: config.env.image_size });
}

export type EnvPurpose = 'train' | 'eval';

/**
 * The cameras and image side of an observation that reads the task's cameras (a depth point cloud,
 * camera images) from the config; undefined for the other observations, which read neither.
 */
export function configCameras(config: RunConfig): { camera: string; imageSize: number } | undefined {
  return readsCameras(config.env.obs_type) ? { camera: config.env.camera, imageSize: config.env.image_size } : undefined;
}

/**
 * Training: num_envs envs. Evaluation: one env per eval episode. Episodes are recorded
 * (qpos and obs, for replay and video) only when the host shows them.
 */
export function runEnvConfig(config: RunConfig, purpose: EnvPurpose, recordEpisodes: boolean): VectorEnvConfig {
  const module = getTask(config.task).module;
  const cameras = configCameras(config);
  return {
    task: config.task,
    ...(module ? { taskModule: module } : {}),
    numEnvs: purpose === 'train' ? config.num_envs : config.eval_episodes,
    obsMode: config.env.obs_type,
    controlMode: config.env.control_mode,
    rewardMode: config.env.reward,
    numPoints: config.env.num_points,
    ...(cameras ? { cameras: parseCameraList(cameras.camera), imageSize: cameras.imageSize } : {}),
    maxEpisodeSteps: config.env.max_episode_steps,
    recordEpisodes,
  };
}

/**
 * The settings a saved rollout state depends on: a resumed run whose key differs
 * cannot continue those episodes and starts fresh ones (a saved history of another spacing would be a different input).
 */
export function rolloutStateKey(config: RunConfig): string {
  const { task, num_envs: numEnvs } = config;
  const { obs_type: obsType, reward, num_points: numPoints, max_episode_steps: maxSteps, auto_reset: autoReset } = config.env;
  // The control by name: a fresh run's 'default' and the checkpoint's name for the same control are one setting.
  const controlMode = configControl(config).name;
  // Cameras join the key only where they are read, so the keys of saved state and pointcloud runs stay as they were.
  const cameras = configCameras(config);
  return JSON.stringify({ task, numEnvs, obsType, controlMode, reward, numPoints, maxSteps, autoReset, nObsSteps: config.policy.n_obs_steps, spacing: config.policy.history_spacing, ...(cameras ? { cameras } : {}) });
}
