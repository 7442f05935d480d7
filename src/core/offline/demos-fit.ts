import type { DemoMetadata } from '../envs/demo-format';
import { obsFrameSize, type FlowPolicyOptions } from '../policy/options';

/**
 * Why a demonstration file cannot feed stage 2 of a checkpoint's policy (another task, another
 * observation mode or size, another action size), as one sentence; undefined when it can.
 */
export function demosFitProblem(metadata: DemoMetadata, task: string, options: FlowPolicyOptions): string | undefined {
  if (metadata.task !== task) return `the demos are for task '${metadata.task}' but the checkpoint is for task '${task}'`;
  const obsMode = options.obsEncoder === 'pointcloud' ? 'pointcloud' : 'state';
  if (metadata.obs_mode !== obsMode) return `the demos hold ${metadata.obs_mode} observations but the checkpoint's policy reads ${obsMode} observations`;
  const frame = obsFrameSize(options);
  if (metadata.obs_dim !== frame) return `the demos' observations hold ${metadata.obs_dim} values but the checkpoint's policy reads ${frame} per frame`;
  if (metadata.action_dim !== options.actionDim) return `the demos' actions have ${metadata.action_dim} dims but the checkpoint's policy outputs ${options.actionDim}`;
  return undefined;
}
