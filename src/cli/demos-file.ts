/**
 * A `.demos` file named on the command line: read and checked whole, every failure one sentence
 * naming the file; and, for stage 1, the observation it decides.
 */
import { readFileSync } from 'node:fs';
import type { RunConfig } from '../core/config/run-config';
import { readDemoFile, type DemoMetadata } from '../core/envs/demo-format';
import { ConfigError, DemosError } from '../core/errors';

/** The demonstrations in `path`; throws DemosError naming the file when it is missing or invalid. */
export function readDemosFile(path: string): ReturnType<typeof readDemoFile> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new DemosError(code === 'ENOENT' ? `demos file '${path}' does not exist` : `demos file '${path}' cannot be read (${code ?? 'unknown error'})`);
  }
  try {
    return readDemoFile(bytes);
  } catch (error) {
    throw new DemosError(`demos file '${path}' is invalid: ${(error as Error).message}`);
  }
}

/**
 * The run config for stage 1 on demos with this metadata: their observation mode and point count.
 * BC trains on what the demos hold, so an override asking for another observation is refused
 * rather than ignored; whether the demos fit the task's env is the stage's check (assertDemosFit).
 */
export function pretrainRunConfig(config: RunConfig, userOverrides: readonly string[], metadata: DemoMetadata): RunConfig {
  const pointsSlice = metadata.obs_slices.find((slice) => slice.name === 'points');
  const numPoints = pointsSlice ? pointsSlice.dim / 3 : config.env.num_points;
  const asked = (key: string) => userOverrides.some((override) => override.startsWith(`${key}=`));
  if (asked('env.obs_type') && config.env.obs_type !== metadata.obs_mode) {
    throw new ConfigError('env.obs_type', `env.obs_type=${config.env.obs_type} but the demos hold ${metadata.obs_mode} observations`);
  }
  if (pointsSlice && asked('env.num_points') && config.env.num_points !== numPoints) {
    throw new ConfigError('env.num_points', `env.num_points=${config.env.num_points} but the demos hold ${numPoints} points per observation`);
  }
  return { ...config, env: { ...config.env, obs_type: metadata.obs_mode, num_points: numPoints } };
}
