import type { RunConfig } from '../config/run-config';
import { configActionDim, configControl } from '../envs/task-controls';
import { DemosError } from '../errors';
import type { DemoMetadata } from '../envs/demo-format';
import { configObservationSpec } from '../run/run-env-config';
import { describeImageLayout } from '../envs/camera/image-layout';
import { DEFAULT_CAMERA } from '../envs/camera/camera-lookup';
import { hasPointCloud, type ImageLayout } from '../envs/task-types';

/** Why image demos do not fit the env's images (cameras, size, channels); undefined when they do ('default' takes the demos' cameras). */
function demosImageProblem(metadata: DemoMetadata, wanted: ImageLayout): string | undefined {
  const image = metadata.image;
  if (!image) return `the demos hold no camera images but the env gives ${describeImageLayout(wanted)}`;
  const cameras = wanted.cameras.length === 1 && wanted.cameras[0] === DEFAULT_CAMERA ? image.cameras : wanted.cameras;
  const same = cameras.length === image.cameras.length && cameras.every((name, index) => name === image.cameras[index]) && image.size === wanted.size && image.channels === wanted.channels;
  return same ? undefined : `the demos hold images of ${describeImageLayout(image)} but the env gives ${describeImageLayout({ ...wanted, cameras })} (env.camera, env.image_size)`;
}

/**
 * The one demos-fit check (stage 1, stage 2 and the studio's drop): why demonstrations cannot
 * train a policy for the config's env (another task, observation kind or size, control mode or
 * action size), as one sentence; undefined when they can. A stage-2 config comes from its
 * checkpoint, whose policy reads and acts in that env, so this also says whether the demos fit it.
 */
export function demosEnvProblem(metadata: DemoMetadata, config: RunConfig): string | undefined {
  if (metadata.task !== config.task) return `the demos are for task '${metadata.task}' but the task is '${config.task}'`;
  const obsType = config.env.obs_type;
  if (metadata.obs_mode !== obsType) return `the demos hold ${metadata.obs_mode} observations but ${config.task}'s env gives ${obsType} observations (env.obs_type)`;
  const spec = configObservationSpec(config);
  if (metadata.obs_dim !== spec.dim) {
    return hasPointCloud(obsType)
      ? `the demos' observations hold ${metadata.obs_dim} values but the env's hold ${spec.dim} (${config.env.num_points} points; env.num_points)`
      : `the demos' observations hold ${metadata.obs_dim} values but the env's hold ${spec.dim}`;
  }
  const imageProblem = spec.image && demosImageProblem(metadata, spec.image);
  if (imageProblem) return imageProblem;
  const control = configControl(config).name;
  if (metadata.control_mode !== control) return `the demos were recorded with control mode ${metadata.control_mode} but the env uses ${control}`;
  const envActions = configActionDim(config);
  if (metadata.action_dim !== envActions) return `the demos' actions have ${metadata.action_dim} dims but the env's have ${envActions}`;
  return undefined;
}

/** Throws DemosError "<source> cannot be used: <why>" when the demos do not fit the config's env. */
export function assertDemosFit(metadata: DemoMetadata, config: RunConfig, source: string): void {
  const problem = demosEnvProblem(metadata, config);
  if (problem) throw new DemosError(`${source} cannot be used: ${problem}`);
}
