/**
 * Stage 1's config meets its demos the same way on every host (DESIGN.md §12, §16): BC trains on
 * what the demos hold, so the observation kind, point count and cameras come from the demos. A host says
 * which of those keys its user set explicitly (the CLI's overrides; the studio's demos form sets
 * none): one of those that asks for another observation is refused rather than ignored. Whether
 * the demos fit the task's env otherwise (task, control, action size) is the stage's check.
 */
import type { DemoMetadata } from '../envs/demo-format';
import { ConfigError } from '../errors';
import type { RunConfig } from './run-config';

/** The config keys stage 1 takes from its demos. */
export type DemosDecidedKey = 'env.obs_type' | 'env.num_points' | 'env.camera' | 'env.image_size';

/** What stage 1 reads of the demos' metadata: their observation kind and slices, and the cameras and image size they were seen through. */
export type DemosObservation = Pick<DemoMetadata, 'obs_mode' | 'image' | 'camera' | 'image_size'> & { obs_slices: readonly Pick<DemoMetadata['obs_slices'][number], 'name' | 'dim'>[] };

/** The cameras and image side the demos were recorded through: an image set's `image`, a depth-cloud set's `camera` and `image_size`. */
function demosCameras(metadata: DemosObservation): { camera: string; imageSize?: number } | undefined {
  if (metadata.image) return { camera: metadata.image.cameras.join(','), imageSize: metadata.image.size };
  return metadata.camera !== undefined ? { camera: metadata.camera, imageSize: metadata.image_size } : undefined;
}

/** `config` with the demos' observation kind and point count; `pinned` keys the user set must agree with the demos. */
export function pretrainConfigForDemos(config: RunConfig, metadata: DemosObservation, pinned: readonly string[] = []): RunConfig {
  const pointsSlice = metadata.obs_slices.find((slice) => slice.name === 'points');
  const numPoints = pointsSlice ? pointsSlice.dim / 3 : config.env.num_points;
  const asked = (key: DemosDecidedKey) => pinned.includes(key);
  if (asked('env.obs_type') && config.env.obs_type !== metadata.obs_mode) {
    throw new ConfigError('env.obs_type', `env.obs_type=${config.env.obs_type} but the demos hold ${metadata.obs_mode} observations`);
  }
  if (pointsSlice && asked('env.num_points') && config.env.num_points !== numPoints) {
    throw new ConfigError('env.num_points', `env.num_points=${config.env.num_points} but the demos hold ${numPoints} points per observation`);
  }
  // Demos seen through cameras (images, depth clouds) say which cameras saw them; BC learns from those.
  const cameras = demosCameras(metadata);
  if (cameras && asked('env.camera') && config.env.camera !== cameras.camera && config.env.camera !== 'default' && cameras.camera !== 'default') {
    throw new ConfigError('env.camera', `env.camera=${config.env.camera} but the demos were recorded from ${cameras.camera}`);
  }
  if (cameras?.imageSize !== undefined && asked('env.image_size') && config.env.image_size !== cameras.imageSize) {
    throw new ConfigError('env.image_size', `env.image_size=${config.env.image_size} but the demos were recorded at ${cameras.imageSize}×${cameras.imageSize} pixels`);
  }
  const cameraEnv = cameras ? { camera: cameras.camera, ...(cameras.imageSize !== undefined ? { image_size: cameras.imageSize } : {}) } : {};
  return { ...config, env: { ...config.env, obs_type: metadata.obs_mode, num_points: numPoints, ...cameraEnv } };
}

/** The keys a list of "key=value" overrides sets. */
export function overriddenKeys(overrides: readonly string[]): string[] {
  return overrides.map((override) => override.slice(0, Math.max(0, override.indexOf('='))));
}
