/**
 * Stage 1's config meets its demos the same way on every host (DESIGN.md §12, §16): BC trains on
 * what the demos hold, so the observation kind and point count come from the demos. A host says
 * which of those keys its user set explicitly (the CLI's overrides; the studio's demos form sets
 * none): one of those that asks for another observation is refused rather than ignored. Whether
 * the demos fit the task's env otherwise (task, control, action size) is the stage's check.
 */
import type { DemoMetadata } from '../envs/demo-format';
import { ConfigError } from '../errors';
import type { RunConfig } from './run-config';

/** The config keys stage 1 takes from its demos. */
export type DemosDecidedKey = 'env.obs_type' | 'env.num_points' | 'env.camera' | 'env.image_size';

/** What stage 1 reads of the demos' metadata: their observation kind and slices, and their images' cameras and size. */
export type DemosObservation = Pick<DemoMetadata, 'obs_mode' | 'image'> & { obs_slices: readonly Pick<DemoMetadata['obs_slices'][number], 'name' | 'dim'>[] };

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
  const image = metadata.image;
  const camera = image ? image.cameras.join(',') : config.env.camera;
  if (image && asked('env.camera') && config.env.camera !== camera && config.env.camera !== 'default') {
    throw new ConfigError('env.camera', `env.camera=${config.env.camera} but the demos hold images of ${camera}`);
  }
  if (image && asked('env.image_size') && config.env.image_size !== image.size) {
    throw new ConfigError('env.image_size', `env.image_size=${config.env.image_size} but the demos hold ${image.size}×${image.size} images`);
  }
  return { ...config, env: { ...config.env, obs_type: metadata.obs_mode, num_points: numPoints, camera, image_size: image ? image.size : config.env.image_size } };
}

/** The keys a list of "key=value" overrides sets. */
export function overriddenKeys(overrides: readonly string[]): string[] {
  return overrides.map((override) => override.slice(0, Math.max(0, override.indexOf('='))));
}
