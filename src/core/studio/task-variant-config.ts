/**
 * The next run's config when the task picker chooses a task and how it is observed (DESIGN.md §13,
 * §19): the task, its observation kind and a control the task has; camera images keep no history,
 * so an image variant observes one frame per decision. Every other field is the user's and stays.
 */
import { cloneConfig, type RunConfig, type TaskName } from '../config';
import { isImageObsMode } from '../envs/task-types';

/** `config` with `task` observed as `obsType`; `taskControls` are the task's control names (a control it lacks goes back to its default). */
export function taskVariantConfig(config: RunConfig, task: TaskName, obsType: RunConfig['env']['obs_type'], taskControls: { has(name: string): boolean }): RunConfig {
  const next = cloneConfig(config);
  next.task = task;
  next.env.obs_type = obsType;
  if (!taskControls.has(next.env.control_mode)) next.env.control_mode = 'default';
  // One observation's images per decision: an image policy stacks no history (policy.n_obs_steps must be 1).
  if (isImageObsMode(obsType)) next.policy.n_obs_steps = 1;
  return next;
}
