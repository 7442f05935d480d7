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

/**
 * For an image policy, the one sentence on what it sees; undefined for other observations. `sceneCameras` are the
 * task scene's camera names, in order, when known: env.camera 'default' is the first of them.
 */
export function policyImageText(env: CameraEnv, sceneCameras: readonly string[] = []): string | undefined {
  if (!isImageObsMode(env.obs_type)) return undefined;
  const names = env.camera === 'default' ? sceneCameras.slice(0, 1) : env.camera.split(',');
  const cameras = names.length === 0 ? 'the scene\'s first camera' : `the ${names.join(', ')} camera${names.length > 1 ? 's' : ''}`;
  const depth = env.obs_type === 'rgbd' ? ' (plus a depth byte a pixel)' : '';
  const image = `${env.image_size}×${env.image_size} rgb image${names.length > 1 ? 's' : ''}`;
  return `The policy sees ${cameras} as ${names.length > 1 ? '' : 'a '}${image}${depth}, rendered the same way as here.`;
}
