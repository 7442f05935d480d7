/**
 * What the Inspect camera panel says about the run's own cameras (DESIGN.md §19): which camera a
 * run that reads cameras starts the panel on, and for an image policy which images it sees.
 */
import { isImageObsMode, readsCameras } from '../../core/envs/task-types';
import type { RunConfig } from '../../core/config';

type CameraEnv = Pick<RunConfig['env'], 'obs_type' | 'camera' | 'image_size'>;

/** The first camera a run reading cameras names; undefined for 'default' (the scene's first) or a run that reads none. */
export function runCameraName(env: CameraEnv): string | undefined {
  return readsCameras(env.obs_type) && env.camera !== 'default' ? env.camera.split(',')[0] : undefined;
}

/** For an image policy, the one sentence on what it sees; undefined for other observations. */
export function policyImageText(env: CameraEnv): string | undefined {
  if (!isImageObsMode(env.obs_type)) return undefined;
  const cameras = env.camera === 'default' ? 'the scene\'s first camera' : env.camera.split(',').join(', ');
  const depth = env.obs_type === 'rgbd' ? ' (plus a depth byte a pixel)' : '';
  return `The policy sees ${cameras} as a ${env.image_size}×${env.image_size} rgb image${depth}, rendered the same way as here.`;
}
